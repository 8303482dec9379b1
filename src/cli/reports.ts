// The entry of the reports' bundle (dist/rtk-report.cjs), loaded by the full
// CLI when a report (gain, discover) is asked for.
export { gainCli } from "./gain.js";
export { discoverCli } from "./discover.js";
export { hookDecisions } from "../accounting/store.js";
// For the tests: the driver the reports use.
export { openDb } from "../accounting/sqlite.js";
