// The rtk command line: a thin dispatcher; each command lives in its own module.
import { join } from "node:path";
import { VERSION } from "../version.js";
import { cacheBeside, requireCached } from "./code-cache.js";
import { finish } from "./finish.js";
import { readCommandArg, readExactCommand, wantsHelp } from "./input.js";

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === "help" || cmd === "--help" || cmd === "-h") return helpCli(cmd, rest);
  if (cmd === "--version" || cmd === "-V") {
    process.stdout.write(`rtk ${VERSION}\n`);
    return 0;
  }
  // `rtk proxy git --help` is git's help: only proxy's first word can ask for rtk's.
  const helpAsked = cmd === "proxy" ? rest[0] === "--help" || rest[0] === "-h" : wantsHelp(rest);
  if (helpAsked) {
    const { commandHelp } = await import("./help.js");
    const text = commandHelp(cmd);
    if (text !== null) {
      process.stdout.write(text);
      return 0;
    }
  }
  return command(cmd, rest, argv);
}

/** `rtk`, `rtk help [COMMAND]`, `rtk --help`. */
async function helpCli(cmd: string | undefined, rest: string[]): Promise<number> {
  const { commandHelp, generalHelp, unknownWord, usageError, COMMAND_NAMES } = await import("./help.js");
  // `rtk help --help` is help's own help, as for every command.
  const topic = cmd !== "help" ? [] : wantsHelp(rest) ? ["help"] : rest;
  if (topic.length > 1) return usageError("help", `one command at a time, not \`${topic.join(" ")}\``);
  if (!topic.length) {
    process.stdout.write(generalHelp());
    return 0;
  }
  const text = commandHelp(topic[0]!);
  if (text === null) return usageError("help", unknownWord("command", topic[0]!, COMMAND_NAMES));
  process.stdout.write(text);
  return 0;
}

/** Runs rtk command `cmd`, each command's module loaded only when it runs; a word that names none is a tool to run. */
async function command(cmd: string, rest: string[], argv: string[]): Promise<number> {
  switch (cmd) {
    case "rewrite": {
      const { rewriteCli } = await import("./rewrite.js");
      return rewriteCli(rest, readExactCommand);
    }
    case "hook": {
      const { hookCli } = await import("./hook.js");
      return hookCli(rest);
    }
    case "init": {
      const { initCli } = await import("./init.js");
      return initCli(rest);
    }
    case "doctor": {
      const { doctorCli } = await import("./doctor.js");
      return doctorCli(rest);
    }
    case "explain": {
      const { explainCommand } = await import("./explain.js");
      return explainCommand(rest, readCommandArg);
    }
    case "recall": {
      const { recallCli } = await import("./recall.js");
      return recallCli(rest);
    }
    case "gain":
      return reports().gainCli(rest);
    case "config": {
      const { configCli } = await import("./config.js");
      return configCli(rest);
    }
    case "trust": {
      const { trustCli } = await import("./trust.js");
      return trustCli(rest);
    }
    case "verify": {
      const { verifyCli } = await import("./verify.js");
      return verifyCli(rest);
    }
    case "discover":
      return reports().discoverCli(rest);
    case "proxy": {
      const { runPassthrough } = await import("../runtime/run.js");
      const tool = rest[0] === "--" ? rest.slice(1) : rest;
      if (!tool.length) {
        const { usageError } = await import("./help.js");
        return usageError("proxy", "no command to run");
      }
      return runPassthrough(tool, process.env);
    }
    default: {
      const { runTool } = await import("../runtime/dispatch.js");
      return runTool(argv);
    }
  }
}

/**
 * The reports' bundle (`rtk gain`): the database driver and the tokenizer stay
 * out of the bundle every other command loads.
 */
function reports(): typeof import("./reports.js") {
  const bundle = join(__dirname, "rtk-report.cjs");
  return requireCached(bundle, cacheBeside(process.execArgv, bundle)) as typeof import("./reports.js");
}

/** Runs the command line and sets the process exit code. */
export function run(argv: string[]): void {
  finish(main(argv));
}
