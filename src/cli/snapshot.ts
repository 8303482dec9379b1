// The entry point built into a V8 startup snapshot: the parser is constructed
// (chevrotain's grammar analysis is the expensive part of starting) and warmed
// up before the heap is saved, so a start from the snapshot skips it.
// In a snapshot start, process.argv is [node, ...args].
import v8 from "node:v8";
import { getParser } from "../../grammar/parse.js";
import { activeRegistry, fullRegistry } from "../routes/registry.js";
import { rewrite } from "../api.js";
import { run } from "./main.js";

getParser();
activeRegistry();
fullRegistry();
for (const cmd of ["git status && npm test | tail -5", "FOO=1 timeout 60 npx vitest run 2>&1 | tail -30", 'cat <<EOF\n$x\nEOF']) {
  rewrite(cmd, { env: {}, warn: () => {} });
}

v8.startupSnapshot.setDeserializeMainFunction(() => run(process.argv.slice(1)));
