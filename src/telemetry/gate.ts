// The run path's whole part in telemetry: when the switch is on and the stamp's
// time has come, move the stamp on by one interval and start `rtk gain --export
// otlp --background` detached, its output nowhere, never waited for. One stat
// per run otherwise; nothing is read from the store or sent from here.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { EffectiveConfig } from "../config/load.js";
import type { Env } from "../config/paths.js";
import { nextExportAt, setNextExport } from "./state.js";

/** Starts a background export when one is due; true when it did. Never throws. */
export function startExportIfDue(env: Env, config: EffectiveConfig, now = Date.now()): boolean {
  try {
    if (!config.telemetry.enabled) return false;
    if (nextExportAt(env) > now) return false;
    // Moved before the start: concurrent runs that read the old time may each start one; the export's lock lets one through.
    setNextExport(env, now + config.telemetry.interval_seconds * 1000);
    const [cmd, ...pre] = selfCommand(env);
    const child = spawn(cmd!, [...pre, "gain", "--export", "otlp", "--background"], { detached: true, stdio: "ignore", env: env as NodeJS.ProcessEnv, windowsHide: true });
    child.on("error", () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/** How to start this rtk again: its launcher when it came through one, else Node with the CLI's bundle. */
function selfCommand(env: Env): string[] {
  const self = env["RTK_SELF"];
  if (self && existsSync(self)) return [self];
  return [process.execPath, join(__dirname, "rtk.cjs")];
}
