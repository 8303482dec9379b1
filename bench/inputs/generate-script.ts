// Generated shell scripts of a given size for the scaling benchmark: a fixed,
// deterministic mix of what agents send (pipes, quotes, substitutions, heredocs,
// if/for/case blocks), repeated with varying names until the size is reached.

const SNIPPETS: ((i: number) => string)[] = [
  (i) => `git status --short && git diff --stat HEAD~${(i % 5) + 1}`,
  (i) => `npm test -- --grep "case ${i}" 2>&1 | tail -n 40`,
  (i) => `find src -name '*.ts' -not -path './node_modules/*' | xargs grep -l "TODO(${i})" || true`,
  (i) => `for f in $(git diff --name-only HEAD~1); do echo "changed: $f"; wc -l "$f"; done`,
  (i) => `if [ -f "build/out${i}.log" ]; then\n  grep -c error "build/out${i}.log"\nelse\n  echo "no log ${i}"\nfi`,
  (i) => `cat > /tmp/note${i}.md <<'EOF'\n# Note ${i}\n- keeps $dollar and \`ticks\` literal\nEOF`,
  (i) => `export PATH="$HOME/.local/bin:$PATH"; cd "$(git rev-parse --show-toplevel)" && ls -la pkg${i}`,
  (i) => `while read -r line; do echo "\${line%%:*}"; done < <(grep -rn 'fixme${i}' src/)`,
  () => `case "$1" in\n  build) make -j4 ;;\n  test) make test ;;\n  *) echo "usage: $0 build|test" >&2; exit 2 ;;\nesac`,
  (i) => `RUST_BACKTRACE=1 cargo test parser::tests_${i} -- --nocapture 2>&1 | head -50`,
  (i) => `python3 -c 'import sys; print(sys.version)' > /tmp/py${i}.txt`,
  () => `docker run --rm -v "$PWD:/app" -w /app node:20 npm ci`,
  (i) => `curl -s "https://api.example.com/items/${i}?q=a&b=c" | jq '.items[] | {id, name}'`,
  (i) => `cleanup_${i}() { rm -rf "/tmp/work${i}"; }`,
  (i) => `sed -i "s/old_${i}/new_${i}/g" src/file${i}.ts && git add -A && git commit -m "rename ${i}"`,
  (i) => `for pkg in packages/*; do\n  (cd "$pkg" && npm run build --if-present) || exit 1\ndone # pass ${i}`,
  (i) => `echo "built at \`date +%s\` by $(whoami)" >> build${i}.log`,
  (i) => `[[ -n "$CI" && $((i = ${i} + 1)) -gt 3 ]] && echo "ci run $i"`,
];

/** A script of exactly `bytes` bytes (ASCII), ending in a newline. */
export function generateScript(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const line = SNIPPETS[i % SNIPPETS.length]!(i) + "\n";
    if (size + line.length > bytes) break;
    parts.push(line);
    size += line.length;
  }
  // The last few bytes are a comment, so every size is exact.
  const rest = bytes - size;
  if (rest >= 2) parts.push("#" + "-".repeat(rest - 2) + "\n");
  else if (rest === 1) parts.push("\n");
  return parts.join("");
}
