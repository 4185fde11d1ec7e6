/** A file read no further than a limit: a settings file or a certificate bundle the user names
 * may be a device that never ends (/dev/zero), and a pipe (`<(…)`) is as good a file as any. */
import { closeSync, openSync, readSync } from "node:fs";

/** The file's first `limit` bytes and one more, so that the caller tells a file too large by a
 * length over `limit`. Throws what opening or reading throws (ENOENT, EISDIR, EACCES …). */
export function readBounded(path: string, limit: number): Buffer {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(limit + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
