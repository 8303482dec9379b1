// Factory's Droid: rtk installs nothing for it; `rtk rewrite --host factory` reads its deny lists.
import { FACTORY_RULES } from "../permissions/sources.js";
import type { Host } from "./types.js";

export const factory: Host = {
  name: "factory",
  title: "Factory Droid",
  aliases: ["droid"],
  rules: FACTORY_RULES,
};
