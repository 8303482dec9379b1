// A command line as a POSIX shell reads it back: words that need no quoting as
// they are, the others in single quotes (a quote inside as '\'').
const PLAIN = /^[A-Za-z0-9_\/.,:=@%+-]+$/;

export function shellQuote(argv: readonly string[]): string {
  return argv.map((w) => (PLAIN.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(" ");
}
