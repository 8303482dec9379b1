// The file probe the runtime hands to filters: what the disk says of a path
// (symlinks followed); a path that cannot be read is none of these.
import { statSync, type Stats } from "node:fs";
import type { FileProbe } from "../filters/types.js";

function stat(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

export const diskProbe: FileProbe = {
  isFile: (path) => stat(path)?.isFile() ?? false,
  isDirectory: (path) => stat(path)?.isDirectory() ?? false,
  isStream(path) {
    const st = stat(path);
    return st !== null && (st.isFIFO() || st.isSocket() || st.isCharacterDevice());
  },
};
