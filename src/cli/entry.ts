// The plain entry point: `node dist/rtk.cjs <args>`.
import { run } from "./main.js";

run(process.argv.slice(2));
