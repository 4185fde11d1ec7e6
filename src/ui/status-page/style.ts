/** The page's stylesheet, inline: nothing is fetched. Narrow screens get one column, and wide
 * calendars and tables scroll sideways inside their own box. */
export const STYLE = `
:root { color-scheme: light; --fg: #1d2330; --muted: #5f6b7a; --line: #dde2e8; --bg: #fff; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #f6f7f9; }
header, main { max-width: 1100px; margin: 0 auto; padding: 12px 16px; }
header h1 { margin: 0; font-size: 20px; }
h2 { font-size: 17px; margin: 0 0 2px; }
h3 { font-size: 14px; margin: 14px 0 4px; }
p { margin: 4px 0; }
section { background: var(--bg); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; margin: 12px 0; }
.muted, .label { color: var(--muted); font-weight: normal; }
.label { font-size: 10px; fill: var(--muted); }
#freshness.late, #messages.late { border-color: #d64545; background: #fdeeee; }
#freshness.late strong { color: #a02020; }
.table-scroll, .calendar-scroll { overflow-x: auto; }
/* Each stream's calendar beside the other while both fit, one under the other when not. */
.streams { display: flex; flex-wrap: wrap; column-gap: 32px; }
.stream { min-width: 0; max-width: 100%; }
/* A reversed row opens scrolled to its start, the right: a calendar longer than the screen
   shows its latest weeks first, without a script; a short one still sits on the left. */
.calendar-scroll { display: flex; flex-direction: row-reverse; justify-content: flex-end; }
.calendar-scroll svg { display: block; flex: none; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); white-space: nowrap; vertical-align: top; }
td.num { text-align: right; }
td.error { white-space: normal; min-width: 16em; color: #a02020; }
.key-failure { color: #a02020; }
section.key-failed { border-color: #d64545; }
.badge { padding: 1px 6px; border-radius: 8px; font-size: 12px; background: #e3e6ea; }
.badge.succeeded { background: #d9f2e1; color: #1d6b36; }
.badge.partial, .badge.interrupted { background: #fff0c7; color: #7a5200; }
.badge.failed { background: #fbd9d9; color: #a02020; }
.badge.running { background: #dcebfb; color: #1f4f8a; }
.cell.complete { fill: #2e9e4f; }
.cell.open { fill: #8fd0ec; }
.cell.incomplete { fill: #f0b429; }
.cell.suspicious { fill: #a46ee0; }
.cell.failed { fill: #d64545; }
.cell.missing { fill: #e3e6ea; }
.rejected { fill: #1d2330; }
.legend { font-size: 12px; color: var(--muted); }
.legend-item { display: inline-flex; align-items: center; gap: 4px; margin-right: 12px; white-space: nowrap; }
.sales-chart { width: 100%; height: 150px; display: block; }
.chart-axis { display: flex; justify-content: space-between; gap: 8px; font-size: 11px; color: var(--muted); margin: 2px 0 6px; }
.sales-chart .hit { fill: transparent; }
.sales-chart .sales-day:hover .hit { fill: #eef2f7; }
.sales { fill: #3b6fd6; }
.orders { fill: none; stroke: #1d2330; stroke-width: 1.5; vector-effect: non-scaling-stroke; }
.cancelled { fill: #d64545; }
.transferred { fill: #f0b429; }
.unsynced { fill: #eceff3; }
.before-history { fill: none; stroke: var(--line); }
.axis { stroke: #9aa5b1; stroke-width: 1; }
.report.ok { fill: #2e9e4f; }
.report.totals-differ { fill: #d64545; }
.report.orders-missing { fill: #f0b429; }
.report.none { fill: #eceff3; }
@media (max-width: 600px) {
  header, main { padding: 8px; }
  section { padding: 10px; }
  .sales-chart { height: 110px; }
  /* A phone keeps what a person asks first: when, how long, how it went, and why not. */
  th.wide, td.wide { display: none; }
  td.error { min-width: 9em; }
}
`;
