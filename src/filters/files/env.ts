// `env`, `printenv`: every variable name stays; the values of secret-looking
// variables are masked (`GITHUB_TOKEN=****`), never dropped. Other values stay
// whole (PATH too), except that a value that looks like a credential (a JWT, a
// bearer token, a cloud or forge key, a private key block) is masked as well,
// and the password of a URL (`postgres://user:****@host/db`), a URL's user
// part that is a key (`https://****@o1.ingest.sentry.io/2`) and a password
// field of a connection string (`Server=x;Password=****;`).
//
// A name is secret-looking when one of its words (split at `_`, `-`, `.` and
// camelCase) is KEY(S), AUTH, PRIVATE, SESSION, PASS, JWT, BEARER, CREDS, or
// when it contains TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE, CREDENTIAL,
// APIKEY, ACCESSKEY, PRIVATEKEY, COOKIE, WEBHOOK or the word DSN (case-insensitive; `TOKENIZERS_…`
// is not a token). Known harmless names are kept: SSH_AUTH_SOCK,
// XDG_SESSION_*, DESKTOP_SESSION, DBUS_SESSION_BUS_ADDRESS, SESSION_MANAGER.
//
// A masked value is `****`, or `*` when it is shorter than five characters, so
// the masked listing is shorter than the raw one (the runtime prints the raw
// output otherwise); only a listing whose every secret is one character long
// prints as it is. Lines of a multi-line masked value go with it. `env` that
// runs a command passes its output through; `-0` listings keep their NULs.
import { type Filter, type FilterInput, type FilterRun } from "../types.js";
import { ErrorLines, given, parseArgs, toolArgs } from "./common.js";

const HARMLESS = new Set(["SSH_AUTH_SOCK", "DESKTOP_SESSION", "DBUS_SESSION_BUS_ADDRESS", "SESSION_MANAGER", "XDG_SESSION_ID", "XDG_SESSION_TYPE", "XDG_SESSION_CLASS", "XDG_SESSION_DESKTOP", "XDG_SESSION_PATH", "XDG_SESSION_COOKIE"]);
const SECRET_WORDS = new Set(["KEY", "KEYS", "AUTH", "PRIVATE", "SESSION", "PASS", "JWT", "BEARER", "CREDS"]);
const SECRET_PARTS = /TOKENS?(?![A-Z])|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|COOKIE|WEBHOOK|(?:^|_)DSN(?:$|_)/;

export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  if (HARMLESS.has(upper) || upper.startsWith("XDG_SESSION_")) return false;
  if (SECRET_PARTS.test(upper)) return true;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toUpperCase()
    .split(/[_\-.%]+/);
  return words.some((w) => SECRET_WORDS.has(w));
}

/** Values that are credentials whatever the variable is called. */
const SECRET_VALUES = [
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/, // JWT
  /\bBearer\s+[A-Za-z0-9._~+/-]{8,}/i,
  /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/, // AWS access key ids
  /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/,
  /\bglpat-[A-Za-z0-9_-]{20,}/,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/, // Slack
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/, // OpenAI, Anthropic
  /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/, // Stripe
  /\bAIza[0-9A-Za-z_-]{35}/, // Google API keys
  /\bnpm_[A-Za-z0-9]{36}\b/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]*:)([^\s@/]+)@/gi;
/** A URL whose user part is a key of its own (a Sentry DSN, a token as the user): long, of letters and digits. */
const URL_KEY_USER = /\b([a-z][a-z0-9+.-]*:\/\/)([A-Za-z0-9_-]{16,})@/gi;
/** A password inside a connection string: `Password=…;`, `pwd=…&`. */
const FIELD_PASSWORD = /\b((?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key)\s*=\s*)([^;&\s]+)/gi;

const MASK = "****";

function mask(value: string): string {
  return value.length > MASK.length ? MASK : "*";
}

/** A value with its credentials masked (the whole value, or a URL's password). */
export function maskValue(value: string, secretName: boolean): string {
  if (value === "") return value;
  if (secretName || SECRET_VALUES.some((re) => re.test(value))) return mask(value);
  return value
    .replace(URL_PASSWORD, (_, head: string, pw: string) => `${head}${mask(pw)}@`)
    .replace(URL_KEY_USER, (whole: string, head: string, user: string) => (/\d/.test(user) && /[A-Za-z]/.test(user) ? `${head}${mask(user)}@` : whole))
    .replace(FIELD_PASSWORD, (_, head: string, pw: string) => `${head}${mask(pw)}`);
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_.%-]*)=/;

interface EnvMode {
  passThrough: boolean;
  nul: boolean;
  /** printenv NAME…: the output is the values alone. */
  names: string[] | null;
}

function modeOf(input: FilterInput): EnvMode {
  const args = toolArgs(input);
  if (input.route.tool === "printenv") {
    const p = parseArgs(args, { shortWithValue: "", longWithValue: [] });
    return { passThrough: given(p, "", ["help", "version"]), nul: given(p, "0", ["null"]), names: p.operands.length ? p.operands : null };
  }
  const p = parseArgs(args, { shortWithValue: "uCS", longWithValue: ["unset", "chdir", "split-string"] });
  // Past the assignments, an operand is a command: its output is not a listing.
  const runs = p.operands.some((o) => !ASSIGNMENT.test(o)) || given(p, "S", ["split-string", "help", "version", "list-signal-handling"]);
  return { passThrough: runs, nul: given(p, "0", ["null"]), names: null };
}

export const env: Filter = {
  id: "env",
  lineForm: () => "text",
  sensitive: true,
  start(input, { recall }): FilterRun {
    const mode = modeOf(input);
    const err = new ErrorLines();
    const lines: string[] = [];
    let changed = false;
    /** The variable whose value the current line continues was masked. */
    let inMasked = false;
    let inKeyBlock = false;
    const valuesSecret = mode.names !== null && mode.names.some(isSecretName);

    const record = (text: string): string | null => {
      if (mode.names) {
        // printenv NAME…: only values; when one asked for is secret, each value line is masked.
        const m = valuesSecret ? (text === "" ? "" : mask(text)) : maskValue(text, false);
        return m;
      }
      const a = ASSIGNMENT.exec(text);
      if (a) {
        inKeyBlock = false;
        const name = a[1]!;
        const value = text.slice(a[0].length);
        const masked = maskValue(value, isSecretName(name));
        inMasked = masked !== value && (masked === MASK || masked === "*");
        if (inMasked && /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(value)) inKeyBlock = true;
        return `${name}=${masked}`;
      }
      // A line of a multi-line value.
      if (inMasked) return null;
      if (inKeyBlock || /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) {
        inKeyBlock = !/-----END [A-Z ]*PRIVATE KEY-----/.test(text);
        return mask(text);
      }
      return maskValue(text, false);
    };

    return {
      line(stream, text) {
        if (stream === "err") return err.add(text);
        if (mode.passThrough) return;
        lines.push(text);
      },
      end() {
        if (mode.passThrough) return null;
        let stdout: string;
        if (mode.nul) {
          const records = lines.join("\n").split("\0");
          const masked = records.map((r, i) => (i === records.length - 1 && r === "" ? r : maskRecord(r)));
          stdout = masked.join("\0");
          changed = masked.some((m, i) => m !== records[i]);
        } else {
          const out: string[] = [];
          for (const l of lines) {
            const r = record(l);
            if (r !== l) changed = true;
            if (r !== null) out.push(r);
          }
          stdout = out.length ? out.join("\n") + "\n" : "";
        }
        return changed ? { stdout, stderr: err.text(recall) } : null;
      },
    };

    function maskRecord(r: string): string {
      if (mode.names) return valuesSecret ? mask(r) : maskValue(r, false);
      const a = ASSIGNMENT.exec(r);
      return a ? `${a[1]}=${maskValue(r.slice(a[0].length), isSecretName(a[1]!))}` : maskValue(r, false);
    }
  },
};
