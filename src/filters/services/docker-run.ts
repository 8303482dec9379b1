// `docker run` and `docker exec` (and `docker container run|exec`): the
// container's output is the program's own, so it goes out as it comes, byte
// for byte, on the stream it came on, nothing held back (stdout always; stderr
// once the container has started). Only docker's pulling of a missing image
// before it (`Unable to find image … locally`, `Pulling fs layer`, `Download
// complete`, `Digest:`, `Status: Downloaded newer image …`) is dropped, counted
// in one line at the end with the recall handle. A run with a terminal (`-t`,
// `--tty`, `-it`) or detached (`-d`) runs with rtk's own stdio.
import { omitted, type Filter, type FilterInput, type FilterRun } from "../types.js";
import { argsAfterSub } from "./common.js";

/** docker run's and exec's options that take a value (so that their value is not read as the image or a flag). */
const VALUE_OPTIONS = new Set([
  "-a",
  "--attach",
  "-e",
  "--env",
  "--env-file",
  "-h",
  "--hostname",
  "-l",
  "--label",
  "--name",
  "--network",
  "-p",
  "--publish",
  "-u",
  "--user",
  "-v",
  "--volume",
  "-w",
  "--workdir",
  "--entrypoint",
  "--platform",
  "--pull",
  "--mount",
  "-m",
  "--memory",
  "--cpus",
  "--detach-keys",
  "--add-host",
  "--device",
  "--dns",
  "--label-file",
  "--log-driver",
  "--log-opt",
  "--restart",
  "--runtime",
  "--shm-size",
  "--stop-signal",
  "--stop-timeout",
  "--ulimit",
  "--cidfile",
  "--gpus",
  "--ipc",
  "--pid",
  "--security-opt",
  "--tmpfs",
  "--cap-add",
  "--cap-drop",
  "--group-add",
  "--expose",
  "--health-cmd",
  "--network-alias",
]);

/** The options docker reads before the image (or container), split into single letters where they are combined (`-it`). */
function dockerOptions(input: FilterInput): Set<string> {
  const found = new Set<string>();
  const args = argsAfterSub(input);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--" || !a.startsWith("-")) break;
    const name = a.includes("=") ? a.slice(0, a.indexOf("=")) : a;
    if (/^-[a-zA-Z]{2,}$/.test(name)) for (const ch of name.slice(1)) found.add(`-${ch}`);
    else found.add(name);
    if (VALUE_OPTIONS.has(name) && !a.includes("=")) i++;
  }
  return found;
}

/** docker's own lines while it pulls an image the run needs. */
const PULL =
  /^(?:Unable to find image '.+' locally|\S+: Pulling from \S+|[0-9a-f]{12}: (?:Pulling fs layer|Waiting|Downloading|Verifying Checksum|Download complete|Extracting|Pull complete|Already exists|Retrying in \d+ seconds?)\b.*|Digest: sha256:[0-9a-f]+|Status: (?:Downloaded newer image|Image is up to date) for \S+)$/;

export const dockerRun: Filter = {
  id: "docker.run",
  // What the container prints is its own: with a terminal, or detached, it is the tool's to print.
  inherits(input) {
    const o = dockerOptions(input);
    return o.has("-t") || o.has("--tty") || o.has("-d") || o.has("--detach");
  },
  streaming: () => true,
  start(_input, ctx): FilterRun {
    let pulled = 0;
    /** The container has started: its stderr is its own from here on. */
    let started = false;
    return {
      // stdout is only ever the container's; stderr once the pull (if any) is over.
      passes: (stream) => stream === "out" || started,
      line(stream, text) {
        if (stream === "err" && !started && PULL.test(text)) {
          pulled++;
          return;
        }
        started = true;
        if (stream === "err") ctx.emit.err(text);
        else ctx.emit.out(text);
      },
      end() {
        return pulled ? { stdout: "", stderr: omitted(pulled, `image pull ${pulled === 1 ? "line" : "lines"}`, ctx.recall) + "\n" } : null;
      },
    };
  },
};
