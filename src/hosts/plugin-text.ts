// The part of an in-process plugin's text that OpenCode's plugin and Pi's
// extension share: the library's loader, the rewrite through it, and the
// fallback through `rtk rewrite` when it cannot be imported. Each host's file
// adds its own checks (OpenCode's deny) and its handler.

export interface RewriteCore {
  /** The host name the plugin rewrites for, as an expression of the plugin's text. */
  host: string;
  /** Fields of the library's answer the plugin reads besides the command, the exit code and `asked`. */
  answerFields?: string;
  /** Declarations between the answer's type and the loader. */
  declarations?: string;
  /** Lines (indented four) that look at the library's answer `r` before it is taken. */
  onAnswer?: string;
  /** Lines (indented two) that run `rtk rewrite --json` as `r`. */
  spawn: string;
  /** Fields of `rtk rewrite --json`'s answer the plugin reads besides `rewritten` and `verdict`. */
  replyFields?: string;
  /** Lines (indented two) that look at that answer `out` before it is taken. */
  onReply?: string;
  /** `rewriteCommand` takes the host's mode and hands it to the library (`spawn` hands it to `rtk rewrite --mode`). */
  mode?: boolean;
}

/**
 * From the library answer's type to `rewriteCommand`, which gives the rewritten
 * command or null: exit 0 or 3 is taken, unless a rule asks (the host asks about
 * the command as typed); a library that cannot be imported falls back to the launcher.
 */
export function rewriteCore(c: RewriteCore): string {
  return `type Rewrite = (
  command: string,
  opts: { host: string; cwd?: string;${c.mode ? " mode?: string;" : ""} warn: (m: string) => void },
) => { command: string | null; exitCode: number; asked?: boolean${c.answerFields ?? ""} };
${c.declarations ?? ""}
let loaded: Promise<Rewrite | null> | undefined;
function library(): Promise<Rewrite | null> {
  loaded ??= import(RTK_LIB).then((m) => (typeof m.rewrite === "function" ? (m.rewrite as Rewrite) : null), () => null);
  return loaded;
}

/** The rewritten command, or null to leave it as it is. */
async function rewriteCommand(command: string, cwd: string | undefined${c.mode ? ", mode: string | undefined" : ""}): Promise<string | null> {
  const rewrite = await library();
  if (rewrite) {
    const r = rewrite(command, { host: ${c.host}, cwd,${c.mode ? " mode," : ""} warn: () => {} });
${c.onAnswer ?? ""}    return r.exitCode === 0 || (r.exitCode === 3 && !r.asked) ? r.command : null;
  }
${c.spawn}  let out: { rewritten?: unknown; verdict?: unknown${c.replyFields ?? ""} } = {};
  try {
    out = JSON.parse(r.stdout);
  } catch {
    return null;
  }
${c.onReply ?? ""}  const taken = r.status === 0 || (r.status === 3 && out.verdict === "default");
  return taken && typeof out.rewritten === "string" ? out.rewritten : null;
}`;
}
