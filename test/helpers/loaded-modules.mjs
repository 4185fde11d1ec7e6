// Loaded with `node --import`: prints every module of this checkout's dist/ that the process
// loads, one `loaded <path>` line each on standard error (test/cli-modules.test.ts).
import { register } from "node:module";

const hooks = `
export async function load(url, context, next) {
  const at = url.indexOf("/dist/");
  if (url.startsWith("file:") && at >= 0) process.stderr.write("loaded " + url.slice(at + 1) + "\\n");
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
