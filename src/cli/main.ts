// The rtk command line: a thin dispatcher; each command lives in its own module.
import { VERSION } from "../version.js";
import { finish } from "./finish.js";
import { readCommandArg, readExactCommand } from "./input.js";

const HELP = `rtk ${VERSION} — compact, faithful command output for AI coding agents

Usage:
  rtk rewrite [--json] "<command>"                          the command with rtk inserted (hooks use this)
  rtk explain [--tree | --json | --canonical] "<command>"   show how rtk reads a command and why
  rtk hook <host>                                           answer a host's pre-command hook (event on stdin)
  rtk init --agent <host> [--global|--project] [--dry-run] [--uninstall]
                                                            install rtk's hook for a host; --show for every host
  rtk init --link <dir>                                     put this rtk on PATH: a symlink <dir>/rtk
  rtk doctor [--json]                                       check every installed hook, end to end
  rtk [--raw] <command> [args…]                             run a command; routed tools print a compact form
  rtk proxy <command> [args…]                               run a command exactly, unfiltered
  rtk recall <id> [--grep P] [--head N] [--tail N] | --list  print what a compact form left out
  rtk config [--json]                                       the effective config and where each value comes from
  rtk trust [path] | --revoke [path] | --list               apply a project's .rtk/config.toml (pins its SHA-256)
  rtk verify                                                check the config and run the declarative filters' inline tests
  rtk help                                                    this text
  rtk --version

A command given as "-" is read from stdin.
`;

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(HELP);
      return 0;
    case "--version":
    case "-V":
      process.stdout.write(`rtk ${VERSION}\n`);
      return 0;
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
    case "proxy": {
      const { runPassthrough } = await import("../runtime/run.js");
      if (!rest.length) {
        process.stderr.write("usage: rtk proxy <command> [args…]\n");
        return 2;
      }
      return runPassthrough(rest, process.env);
    }
    default: {
      const { runTool } = await import("../runtime/dispatch.js");
      return runTool(argv);
    }
  }
}

/** Runs the command line and sets the process exit code. */
export function run(argv: string[]): void {
  finish(main(argv));
}
