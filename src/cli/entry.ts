// The plain entry point: `node dist/rtk.cjs <args>`. The launcher starts it when
// no startup snapshot fits this Node binary, and then says where one belongs.
import { run } from "./main.js";
import { restoreLauncherEnv } from "./launcher-env.js";
import { requestSnapshot } from "./snapshot-cache.js";

restoreLauncherEnv();

requestSnapshot(process.env, __dirname);
run(process.argv.slice(2));
