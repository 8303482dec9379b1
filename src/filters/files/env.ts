// `env`, `printenv`: every variable name stays; the values of secret-looking
// variables are masked (`GITHUB_TOKEN=****`), never dropped. Other values stay
// whole (PATH too), except that a value that looks like a credential (a JWT, a
// bearer token, a cloud or forge key, a private key block) is masked as well,
// and the password of a URL (`postgres://user:****@host/db`), a URL's user
// part that is a key (`https://****@o1.ingest.sentry.io/2`) and a password
// field of a connection string (`Server=x;Password=****;`).
//
// A name is secret-looking by SECRET_NAMES (case-insensitive): one of its words
// (split at `_`, `-`, `.`, `%` and camelCase) is a secret word (`MYSQL_PWD`,
// `SMTP_PASS`, `dbAuth`), or it holds a secret part anywhere (`GPG_PASSPHRASE`,
// `AWS_CREDENTIALS`, `GITHUB_TOKEN_RO`; `TOKENIZERS_…` is not a token). Known
// harmless names are kept: PWD, SSH_AUTH_SOCK, XDG_SESSION_*, DESKTOP_SESSION,
// DBUS_SESSION_BUS_ADDRESS, SESSION_MANAGER.
//
// A value may span lines: in an `env` listing its next lines do not start with
// `NAME=` (inside a private key block, none of them starts a variable), and
// `printenv NAME` prints the value alone. The value is one secret: a masked
// one prints as one `NAME=****` line, and a credential on any of its lines
// masks all of it. `printenv A B` that printed one line per name (exit 0) is
// masked name by name; otherwise its lines cannot be told apart, and the whole
// output is masked as one value when any name asked for is secret.
//
// A masked value is `****`, or `*` when it is shorter than five characters, so
// the masked listing is shorter than the raw one (the runtime prints the raw
// output otherwise); only a listing whose every secret is one character long
// prints as it is. `env` that runs a command passes its output through; `-0`
// listings keep their NULs.
import { ErrorLines } from "../kit.js";
import { type Filter, type FilterInput, type FilterRun } from "../types.js";
import { given, parseArgs, toolArgs } from "./common.js";

/**
 * The secret-looking names, in one table: a `word` row matches a whole word of
 * the name, a `part` row (a regular expression) anywhere in it.
 */
const SECRET_NAMES: readonly { word?: string; part?: string }[] = [
  { word: "KEY" },
  { word: "KEYS" },
  { part: "API_?KEY" },
  { part: "ACCESS_?KEY" },
  { part: "PRIVATE_?KEY" },
  { part: "AUTH_?KEY" },
  { word: "PRIVATE" },
  { part: "SECRET" },
  { part: "TOKENS?(?![A-Z])" },
  { word: "PASS" },
  { word: "PWD" },
  { part: "PASSWORD" },
  { part: "PASSWD" },
  { part: "PASSPHRASE" },
  { word: "CREDS" },
  { part: "CREDENTIAL" },
  { word: "AUTH" },
  { part: "AUTHORIZATION" },
  { word: "SESSION" },
  { part: "COOKIE" },
  { word: "JWT" },
  { word: "BEARER" },
  { word: "SALT" },
  { part: "WEBHOOK" },
  { word: "DSN" },
];
const SECRET_WORDS = new Set(SECRET_NAMES.flatMap((r) => (r.word ? [r.word] : [])));
const SECRET_PARTS = new RegExp(SECRET_NAMES.flatMap((r) => (r.part ? [r.part] : [])).join("|"));
const HARMLESS = new Set(["PWD", "SSH_AUTH_SOCK", "DESKTOP_SESSION", "DBUS_SESSION_BUS_ADDRESS", "SESSION_MANAGER"]);

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

const KEY_BEGIN = /-----BEGIN [A-Z ]*PRIVATE KEY-----/g;
const KEY_END = /-----END [A-Z ]*PRIVATE KEY-----/g;
/** A line of a key's body: base64, padded (`QyNTUxOQ=` reads like an assignment). */
const BASE64_LINE = /^[A-Za-z0-9+/]+={0,2}$/;

/** Whether a private key block is open after `text`, given whether one was open before it. */
function keyBlockOpen(open: boolean, text: string): boolean {
  const last = (re: RegExp) => Math.max(-1, ...[...text.matchAll(re)].map((m) => m.index!));
  const begin = last(KEY_BEGIN);
  const end = last(KEY_END);
  if (begin < 0 && end < 0) return open;
  return begin > end;
}

/** A variable of an `env` listing: its name (null for lines before the first one) and its value. */
interface Variable {
  name: string | null;
  value: string;
}

/**
 * The variables of a listing: a line that does not start a variable continues
 * the value before it, as does a base64 line inside a private key block.
 */
function variables(lines: readonly string[]): Variable[] {
  const vars: Variable[] = [];
  let inKey = false;
  for (const l of lines) {
    const a = inKey && BASE64_LINE.test(l) ? null : ASSIGNMENT.exec(l);
    const last = vars[vars.length - 1];
    if (a || !last) vars.push({ name: a ? a[1]! : null, value: a ? l.slice(a[0].length) : l });
    else last.value += "\n" + l;
    inKey = keyBlockOpen(inKey, l);
  }
  return vars;
}

function maskVariable(v: Variable): string {
  const value = maskValue(v.value, v.name !== null && isSecretName(v.name));
  return v.name === null ? value : `${v.name}=${value}`;
}

/**
 * `printenv NAME…`: the values alone, each ended by `sep`. One per name when
 * the run found every name and printed as many values: each is masked by its
 * own name. Otherwise which value is whose is unknown: each is masked when any
 * name asked for is secret, and newline-ended values, which cannot even be
 * told apart, are masked as one.
 */
function maskValues(values: readonly string[], names: readonly string[], exitCode: number, sep: "\n" | "\0"): string[] {
  if (exitCode === 0 && values.length === names.length) return values.map((v, i) => maskValue(v, isSecretName(names[i]!)));
  const anySecret = names.some(isSecretName);
  if (sep === "\0" || values.length <= 1) return values.map((v) => maskValue(v, anySecret));
  return maskValue(values.join(sep), anySecret).split(sep);
}

export const env: Filter = {
  id: "env",
  lineForm: () => "text",
  sensitive: true,
  start(input, { recall }): FilterRun {
    const mode = modeOf(input);
    const err = new ErrorLines();
    const lines: string[] = [];
    return {
      line(stream, text) {
        if (stream === "err") return err.add(text);
        if (mode.passThrough) return;
        lines.push(text);
      },
      end(exitCode) {
        if (mode.passThrough) return null;
        const raw = lines.join("\n");
        let records: string[];
        if (mode.nul) {
          records = raw.split("\0");
          // What follows the last NUL is normally nothing: anything else is one more record.
          const rest = records.pop()!;
          const masked = mode.names ? maskValues(records, mode.names, exitCode, "\0") : records.map((r) => maskVariable(variableOf(r)));
          records = [...masked.map((r) => r + "\0"), rest === "" ? "" : mode.names ? maskValue(rest, true) : maskVariable(variableOf(rest))];
        } else {
          const masked = mode.names ? maskValues(lines, mode.names, exitCode, "\n") : variables(lines).map(maskVariable);
          records = masked.map((r) => r + "\n");
        }
        const stdout = records.join("");
        const unchanged = stdout === (mode.nul ? raw : lines.length ? raw + "\n" : "");
        return unchanged ? null : { stdout, stderr: err.text(recall) };
      },
    };
  },
};

/** A NUL-ended record of `env -0`: the whole of one variable. */
function variableOf(record: string): Variable {
  const a = ASSIGNMENT.exec(record);
  return a ? { name: a[1]!, value: record.slice(a[0].length) } : { name: null, value: record };
}
