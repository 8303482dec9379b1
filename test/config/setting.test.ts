// Reading a setting: its type comes from the schema (type-checked by `npm test`,
// which runs tsc over the suite), its value from the files that apply, and an
// unknown key does not compile.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { configFromToml } from "../../src/config/file.js";
import { loadConfig } from "../../src/config/load.js";
import { sandbox, write } from "./sandbox.js";

const USER = `[limits]\nlist_tokens = 500\nroute_tokens = { "git.log" = 4000 }\n\n[hooks]\nexclude_commands = ["git push"]\n`;

describe("settings are typed by the schema", () => {
  test("each key reads as its check's type, from the user file or the default", () => {
    const s = sandbox();
    write(s.userFile, USER);
    const cfg = loadConfig({ HOME: s.home, XDG_CONFIG_HOME: s.config, XDG_DATA_HOME: s.data }, s.project);
    const listTokens: number = cfg.limits.list_tokens;
    const routes: Record<string, number> = cfg.limits.route_tokens;
    const excluded: string[] = cfg.hooks.exclude_commands;
    const recall: boolean = cfg.recall.enabled;
    assert.deepEqual({ listTokens, routes, excluded, recall }, { listTokens: 500, routes: { "git.log": 4000 }, excluded: ["git push"], recall: true });
    // @ts-expect-error a key the schema does not have
    assert.equal(cfg.limits.list_token, undefined);
    // @ts-expect-error a value of another type
    const wrong: string = cfg.limits.content_chars;
    assert.equal(wrong, 30000);
  });

  test("a value reads as its setting holds it, after the environment", () => {
    const s = sandbox();
    write(s.userFile, USER);
    const cfg = loadConfig({ HOME: s.home, XDG_CONFIG_HOME: s.config, XDG_DATA_HOME: s.data, RTK_NO_TRACK: "1", RTK_PASSTHROUGH_TOKENS: "0" }, s.project);
    assert.equal(cfg.tracking.enabled, false);
    assert.equal(cfg.limits.passthrough_tokens, 0);
    for (const [section, keys] of Object.entries(cfg.settings)) {
      for (const [key, setting] of Object.entries(keys)) assert.deepEqual((cfg as unknown as Record<string, Record<string, unknown>>)[section]![key], setting.value, `${section}.${key}`);
    }
  });

  test("a file's own values: typed the same, absent when the file does not set them", () => {
    const file = configFromToml(USER, "/x/config.toml");
    const excluded: string[] | undefined = file.values.hooks?.exclude_commands;
    assert.deepEqual(excluded, ["git push"]);
    assert.equal(file.values.hooks?.transparent_prefixes, undefined);
    assert.equal(file.values.telemetry, undefined);
    assert.deepEqual(Object.keys(file.values), ["limits", "hooks"]);
  });
});
