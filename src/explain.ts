// `explain` as data: what `rtk explain --json` prints, for integrators.
import { resultJson, rewrite, type RewriteCallOptions } from "./api.js";

export function explain(command: string, opts: RewriteCallOptions = {}) {
  const r = rewrite(command, opts);
  return {
    command,
    parse: r.parse.ok ? { ok: true as const } : { ok: false as const, error: r.parse.error },
    ...resultJson(r),
    unattestable: r.unattestable,
    permissions: r.permissionDetail,
  };
}
