// What rtk tells the agent at the start of a session, as the real hosts pass
// it on: one short session per host, with `rtk init` installed, over a
// one-command script. The model's first request of the session carries rtk's
// context exactly once; with `hooks.session_context = false` it carries none.
// rtk records each session start it added the context to (rtk gain counts it).
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { ensureBuilt } from "../support/build.js";
import { sessionContext } from "../../src/text/markers.js";
import { claudeDriver } from "./hosts/claude.js";
import { codexDriver } from "./hosts/codex.js";
import { copilotDriver } from "./hosts/copilot.js";
import { geminiDriver } from "./hosts/gemini.js";
import { SESSION_PROMPT } from "./support/anthropic.js";
import { session, spoolRecords as readSpool, type HostDriver, type SessionResult } from "./support/session.js";

const SCRIPT = ["git status"];
const OFF = { ".config/rtk/config.toml": "[hooks]\nsession_context = false\n" };

/** How often the context is in the first request of the session's own conversation (the one opened by the session's prompt). */
function inFirstRequest(r: SessionResult): { count: number; body: string } {
  const first = r.requests.find((q) => JSON.stringify(q.body).includes(SESSION_PROMPT));
  assert.ok(first, `the model got no request of the session:\n${r.log.slice(-3000)}`);
  const body = JSON.stringify(first.body);
  // As it sits in the JSON of the request: newlines escaped.
  const needle = JSON.stringify(sessionContext()).slice(1, -1);
  return { count: body.split(needle).length - 1, body };
}

const HOSTS: [string, () => HostDriver | { error: string }, string | undefined][] = [
  ["Claude Code", claudeDriver, "default"],
  ["Codex", codexDriver, "never/workspace-write"],
  ["Gemini CLI", geminiDriver, undefined],
  ["Copilot CLI", copilotDriver, undefined],
];

before(() => ensureBuilt());

for (const [title, make, mode] of HOSTS) {
  describe(title, () => {
    let driver: HostDriver | { error: string };
    before(() => (driver = make()));

    test("the first request of a session carries rtk's context exactly once; the session start is recorded", async (t) => {
      if ("error" in driver) return t.skip(`${title} cannot run here: ${driver.error}`);
      let records: Record<string, unknown>[] = [];
      const r = await session(driver, SCRIPT, { withRtk: true, ...(mode ? { mode } : {}), inspect: (s) => (records = readSpool(s)) });
      const { count, body } = inFirstRequest(r);
      assert.equal(count, 1, `rtk's context ${count} times in the first request: ${body.slice(0, 4000)}`);
      assert.deepEqual(r.hookErrors, []);
      assert.equal(records.filter((x) => x["verdict"] === "context").length >= 1, true, JSON.stringify(records));
      // The session went on: its command ran.
      assert.equal(r.outcomes[0]!.fate, "ran", r.log.slice(-3000));
    });

    test("switched off (hooks.session_context = false): no context, none recorded", async (t) => {
      if ("error" in driver) return t.skip(`${title} cannot run here: ${driver.error}`);
      let records: Record<string, unknown>[] = [];
      const r = await session(driver, SCRIPT, { withRtk: true, ...(mode ? { mode } : {}), files: OFF, inspect: (s) => (records = readSpool(s)) });
      assert.equal(inFirstRequest(r).count, 0);
      assert.deepEqual(r.hookErrors, []);
      assert.deepEqual(
        records.filter((x) => x["verdict"] === "context"),
        [],
      );
    });
  });
}
