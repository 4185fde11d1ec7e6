/** An analyst's SQL, run as the demo shows it. */

import type { QueryResult } from "../sql/dialect.js";
import type { ReadSession } from "./session.js";

export class QueryReads {
  constructor(private readonly db: ReadSession) {}

  /** Columns named as the query names them. */
  runQuery(sql: string): Promise<QueryResult> {
    return this.db.sql.table(sql);
  }
}
