/** A stream that keeps what is written to it, for tests of what a person sees. */
import { Writable } from "node:stream";

export function captureOutput(): { out: Writable; text: () => string } {
  let output = "";
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  return { out, text: () => output };
}
