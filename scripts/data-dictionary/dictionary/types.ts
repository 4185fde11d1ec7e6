/** The shape of the hand-written data dictionary: what each table, column and view means. */

/** Which API record a table's rows come from (null: pos-sync's own bookkeeping). */
export type ApiRecord =
  | "order"
  | "report"
  | "location"
  | "device"
  | "product"
  | "category"
  | "modifier"
  | "paymentMethod"
  | "tax";

export interface ColumnDoc {
  /** Path of the API field in the table's API record, e.g. "items[].tax.taxRate"; null when
   * pos-sync derives the value. */
  from: string | null;
  meaning: string;
}

export interface TableDoc {
  record: ApiRecord | null;
  /** e.g. "items[]": the array whose elements are the rows; absent for whole records */
  elements?: string;
  /** Where the rows come from, when that is neither one per API record (or element) nor
   * pos-sync's own work. */
  rowsFrom?: string;
  meaning: string;
  columns: Record<string, ColumnDoc>;
}

export interface ViewDoc {
  meaning: string;
  columns: Record<string, string>;
}
