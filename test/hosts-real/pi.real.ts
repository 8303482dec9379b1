// Pi, the real program (`pi --mode json`), with and without rtk's extension:
// Pi has no command rules and asks about nothing, so every command runs in
// both sessions; where rtk rewrote one, the model received rtk's output and
// rtk recorded the run, and what went through rtk is what rtk's library
// decides for Pi. The rows are where the extension is installed: the user's
// folder (loaded always), the project's (loaded once the project is trusted:
// `--approve`), and the project's untrusted (not loaded: nothing is rewritten).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { rewrite } from "../../src/api.js";
import { ensureBuilt } from "../support/build.js";
import { parityCommands } from "./corpus.js";
import { piDriver, PI_PACKAGE } from "./hosts/pi.js";
import { assertParity, assertSameHost, ciShare, FULL, parityRow, reportRows, type ParityRow, type RuleSet } from "./parity.js";
import { scratch } from "./support/sandbox.js";
import type { HostDriver } from "./support/session.js";

const NONE: RuleSet = { name: "none", files: {} };

interface Row {
  /** Where `rtk init` puts the extension. */
  scope: "user" | "project";
  /** `approve`: the project trusted for the run; `untrusted`: Pi's default where it cannot ask. */
  mode: "approve" | "untrusted" | undefined;
  /** The share of the corpus CI runs (ciShare); null: only with RTK_REAL_HOSTS_FULL=1. */
  share: number | null;
}

const ROWS: readonly Row[] = [
  { scope: "user", mode: undefined, share: 8 },
  { scope: "project", mode: "approve", share: 32 },
  { scope: "project", mode: "untrusted", share: null },
];

let driver: HostDriver | { error: string };
const rows: ParityRow[] = [];
const all = parityCommands();

before(() => {
  ensureBuilt();
  driver = piDriver();
});

after(() => {
  reportRows("pi", `Pi ${PI_PACKAGE.version}`, rows);
});

describe(`Pi ${PI_PACKAGE.version} with and without rtk`, () => {
  for (const { scope, mode, share } of ROWS) {
    const label = `extension in the ${scope}'s folder${mode ? ` × ${mode}` : ""}`;
    test(`${label}: every command runs in both, through rtk where rtk rewrites it`, async (t) => {
      if ("error" in driver) return t.skip(`Pi cannot run here: ${driver.error}`);
      if (share === null && !FULL) return t.skip("with RTK_REAL_HOSTS_FULL=1 only");
      const row = await parityRow(driver, ciShare(all, share ?? 1), { ...NONE, name: `${scope} extension` }, mode, { init: scope === "project" ? ["--project"] : [] });
      rows.push(row);
      assertSameHost(`pi-${PI_PACKAGE.version}`, label, row.without);
      assertParity(row);
      assert.equal(row.ranWith, row.commands, "Pi runs every command: it has no rules");
      const loaded = mode !== "untrusted";
      // What went through rtk is what rtk's library decides for Pi; with the extension not loaded, nothing.
      const replica = scratch({ withRtk: false });
      try {
        for (const o of row.with) {
          const r = rewrite(o.command, { host: "pi", cwd: replica.repo, env: replica.env, warn: () => {} });
          const handed = loaded && (r.exitCode === 0 || (r.exitCode === 3 && !r.asked)) ? r.command : null;
          assert.equal(o.rewritten, handed, `what ran for ${JSON.stringify(o.command)}`);
        }
      } finally {
        replica.dispose();
      }
      if (loaded) assert.ok(row.throughRtk > 0, "the extension rewrites");
    });
  }
});
