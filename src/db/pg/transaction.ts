/** One transaction on one connection of the pool, tried again when PostgreSQL chose it as the
 * victim of a deadlock or a serialization conflict (the other side went on; this one may too). */
import type { PostgresTarget } from "../../config/config.js";
import { connect, type PgClient, type PgPool } from "./connect.js";

const TRY_AGAIN = new Set(["40P01", "40001"]);
const ATTEMPTS = 5;

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
}

export async function inTransaction<T>(
  pool: PgPool,
  target: PostgresTarget,
  work: (client: PgClient) => Promise<T>,
): Promise<T> {
  const client = await connect(pool, target);
  let broken = false;
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query("BEGIN");
        const result = await work(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {
          broken = true;
        });
        if (broken || !TRY_AGAIN.has(codeOf(error)) || attempt === ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt * Math.random()));
      }
    }
  } finally {
    client.release(broken);
  }
}
