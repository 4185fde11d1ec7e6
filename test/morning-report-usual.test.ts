import { describe, expect, it } from "vitest";
import { addDays } from "../src/clock/days.js";
import { priorWeekdays, type SalesRow, usualOf } from "../src/morning-report/figures.js";

const DAY = "2026-12-07";
const row = (
  weeksBefore: number,
  sales: number,
  orders: number,
  guests = orders * 2,
): SalesRow => ({
  day: addDays(DAY, -7 * weeksBefore),
  orders,
  guests,
  sales,
});

describe("the usual of a day", () => {
  it("averages the same weekday of the four weeks before", () => {
    expect(priorWeekdays(DAY)).toEqual(["2026-11-30", "2026-11-23", "2026-11-16", "2026-11-09"]);
    const { usual, weeks } = usualOf(DAY, [row(1, 1000, 40), row(2, 2000, 60)]);
    expect(weeks).toBe(2);
    expect(usual).toEqual({ sales: 1500, orders: 50, guests: 100, averageOrder: 30 });
  });

  it("leaves out a prior weekday without sales: one of only training, cancelled or transferred orders", () => {
    // daily_sales keeps a row for such a day, with its sales at zero.
    const rows = [row(1, 1751.15, 50), row(2, 0, 0, 0), row(3, 1700.3, 48), row(4, 1802, 52)];
    const { usual, weeks } = usualOf(DAY, rows);
    expect(weeks).toBe(3);
    expect(usual?.sales).toBeCloseTo((1751.15 + 1700.3 + 1802) / 3, 2);
    expect(usual?.orders).toBe(50);
  });

  it("has no usual when no prior weekday had sales, and ignores the day itself and other days", () => {
    const rows = [
      row(1, 0, 0, 0),
      { day: DAY, orders: 10, guests: 20, sales: 300 },
      { day: addDays(DAY, -1), orders: 10, guests: 20, sales: 300 },
    ];
    expect(usualOf(DAY, rows)).toEqual({ usual: null, weeks: 0 });
  });
});
