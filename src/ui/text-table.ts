import { visible } from "../terminal-text.js";

/** Plain-text tables for terminal output: the first column left-aligned, the others
 * right-aligned (they hold numbers) unless `align` is "left" (text), columns two spaces apart.
 * Cells may hold API text (product names, field names): each is made visible (terminal-text.ts)
 * before the columns are measured. */
export function formatTable(
  cells: readonly (readonly string[])[],
  align: "numbers" | "left" = "numbers",
): string[] {
  const rows = cells.map((row) => row.map(visible));
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  const leftAligned = (column: number) => column === 0 || align === "left";
  return rows.map((row) =>
    row
      .map((cell, column) =>
        leftAligned(column) ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd(),
  );
}
