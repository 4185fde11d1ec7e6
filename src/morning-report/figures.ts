/**
 * The morning report's arithmetic: a day's figures summed from rows, and "usual", the same
 * weekday of the four weeks before averaged over those that had sales. Pure, so that which days
 * count is decided (and tested) in one place, whichever database the rows came from.
 */

import { addDays } from "../clock/days.js";

export interface DayFigures {
  sales: number;
  orders: number;
  guests: number;
  averageOrder: number | null;
}

/** A day's row as the report reads it (daily_sales). */
export interface SalesRow {
  day: string;
  orders: number;
  guests: number;
  sales: number;
}

export interface Usual {
  /** The prior weekdays that had sales, averaged; null when none had. */
  usual: DayFigures | null;
  /** How many of the prior weekdays had sales. */
  weeks: number;
}

export const WEEKS_COMPARED = 4;

const cents = (value: number) => Math.round(value * 100) / 100;

/** The same weekday of each of the WEEKS_COMPARED weeks before `day`, the nearest first. */
export function priorWeekdays(day: string): string[] {
  return Array.from({ length: WEEKS_COMPARED }, (_, i) => addDays(day, -7 * (i + 1)));
}

/** Rows summed: sales to the cent, the average order over the orders of all of them. */
export function figuresOf(rows: readonly Omit<SalesRow, "day">[]): DayFigures {
  const sum = (pick: (row: (typeof rows)[number]) => number) =>
    rows.reduce((total, row) => total + pick(row), 0);
  const orders = sum((row) => row.orders);
  const sales = cents(sum((row) => row.sales));
  return {
    sales,
    orders,
    guests: sum((row) => row.guests),
    averageOrder: orders > 0 ? cents(sales / orders) : null,
  };
}

/**
 * What `day` is compared with. A prior weekday counts only with sales: daily_sales has a row for
 * a day of only training, cancelled or transferred orders too (their counts are kept), and its
 * zero would drag the average down as if the location had sold nothing while open.
 */
export function usualOf(day: string, rows: readonly SalesRow[]): Usual {
  const weekdays = new Set(priorWeekdays(day));
  const counted = rows.filter((row) => weekdays.has(row.day) && row.sales > 0);
  if (counted.length === 0) return { usual: null, weeks: 0 };
  const total = figuresOf(counted);
  return {
    usual: {
      sales: cents(total.sales / counted.length),
      orders: Math.round(total.orders / counted.length),
      guests: Math.round(total.guests / counted.length),
      averageOrder: total.averageOrder,
    },
    weeks: counted.length,
  };
}
