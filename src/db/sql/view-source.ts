import type { SqlDialect } from "./dialect.js";

/** A view of the contract: its name and the SELECT that defines it, in each dialect. */
export interface ViewSource {
  name: string;
  select(d: SqlDialect): string;
}
