// No host: the rewrite with no rules but rtk's own (`rtk rewrite --host none`).
import { NO_RULES } from "../permissions/sources.js";
import type { Host } from "./types.js";

export const none: Host = {
  name: "none",
  title: "no host",
  aliases: ["rules-only"],
  rules: NO_RULES,
};
