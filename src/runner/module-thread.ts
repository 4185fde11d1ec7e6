/**
 * Starts a worker thread on a module of src/ beside this one. From dist/ that is the compiled .js
 * file as is. From the TypeScript sources (the tests, the benchmarks run with tsx) it is the .ts
 * file, which a worker cannot load by itself: a worker does not inherit the loader the process
 * was started with, so a one-line bootstrap registers tsx's loader in the thread first.
 */
import { Worker, type WorkerOptions } from "node:worker_threads";

export function startModuleThread(
  name: string,
  parentUrl: string,
  options: Omit<WorkerOptions, "eval">,
): Worker {
  const fromSources = parentUrl.endsWith(".ts");
  const url = new URL(`./${name}${fromSources ? ".ts" : ".js"}`, parentUrl);
  if (!fromSources) return new Worker(url, options);
  const bootstrap = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
