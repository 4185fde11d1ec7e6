/**
 * The folder pos-sync is installed in (the one with its package.json), and the files it ships
 * beside its code: the migrations, the manifest and the docs. Found by walking up from this
 * module rather than by a fixed `../..`: the code runs from src/ (tests), from dist/ as tsc emits
 * it, and bundled into dist/bin/ (scripts/bundle.mjs), each at another depth.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function packageRootAbove(start: string): string {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, "package.json"))) return folder;
    if (dirname(folder) === folder)
      throw new Error(`pos-sync's package.json is in no folder above ${start}`);
  }
}

export const PACKAGE_ROOT = packageRootAbove(dirname(fileURLToPath(import.meta.url)));

/** A file or folder the package ships, by its path from the package's root. */
export function packagePath(...segments: string[]): string {
  return join(PACKAGE_ROOT, ...segments);
}
