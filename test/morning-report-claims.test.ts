/** What the morning report's subject and headline may claim when a location's day is not read
 * (completeness.ts), in the plain text, the HTML and the message alike: reports built by hand. */
import { describe, expect, it } from "vitest";
import type {
  DataHealth,
  LocationReport,
  MorningReport,
} from "../src/morning-report/morning-report.js";
import { reportMessage } from "../src/morning-report/report-message.js";
import { amountFormat } from "../src/morning-report/text.js";

const DAY = "2026-12-05";
const amount = amountFormat("FR");
const PROVED: DataHealth = { complete: true, proved: true, gaps: [], repairs: 0, rejects: 0 };

function location(
  name: string,
  sales: number,
  usualSales: number,
  health: DataHealth,
): LocationReport {
  const orders = sales === 0 ? 0 : 146;
  return {
    locationId: name.toLowerCase().replace(/ /g, "-"),
    name,
    country: "FR",
    day: DAY,
    figures: {
      sales,
      orders,
      guests: orders * 2,
      averageOrder: orders > 0 ? sales / orders : null,
    },
    usual: { sales: usualSales, orders: 150, guests: 300, averageOrder: usualSales / 150 },
    usualWeeks: 4,
    exceptions: [],
    health,
  };
}

function reportOf(locations: LocationReport[], read: LocationReport[]): MorningReport {
  const sum = (pick: (l: LocationReport) => number) => read.reduce((t, l) => t + pick(l), 0);
  return {
    day: DAY,
    days: [DAY],
    generatedAt: "2026-12-06T09:00:00.000Z",
    locations,
    // As collectMorningReport sums them: the read locations' only.
    chain: {
      figures:
        read.length === 0
          ? null
          : {
              sales: sum((l) => l.figures.sales),
              orders: sum((l) => l.figures.orders),
              guests: sum((l) => l.figures.guests),
              averageOrder: null,
            },
      usual: null,
      exceptions: 0,
    },
    lastSuccessAt: "2026-12-06T08:55:00.000Z",
  };
}

/** The lines of the text's "No exceptions:" section. */
function quietSection(text: string): string[] {
  const at = text.indexOf("No exceptions:");
  if (at < 0) return [];
  return (text.slice(at).split("\n\n")[0] ?? "").split("\n").slice(1);
}

describe("a morning report whose day is not read for every location", () => {
  const zinc = location("Le Petit Zinc", 7462.4, 7699.07, PROVED);

  it("says so in its subject and headline, headlines only the read locations, and lists the other apart", () => {
    const aurora = location("Trattoria Aurora", 0, 7312.96, {
      complete: false,
      proved: false,
      gaps: ["orders: failed", "reports: not read"],
      repairs: 0,
      rejects: 0,
    });
    const report = reportOf([zinc, aurora], [zinc]);
    const { subject, text, html } = reportMessage(report);

    expect(subject).toBe(
      "Morning report, Saturday 5 December 2026, incomplete: 1 of 2 locations read",
    );
    const [, , headline, notRead] = text.split("\n");
    expect(headline).toMatch(new RegExp(`^1 of 2 locations read: sales ${amount(7462.4)} `));
    expect(notRead).toContain("Not read in full, so not in these figures: Trattoria Aurora");
    expect(text).not.toContain("All 2 location(s)");
    // The read location quiet, with its change; the other not among them, and no change of its.
    const quiet = quietSection(text);
    expect(quiet).toHaveLength(1);
    expect(quiet[0]).toContain("Le Petit Zinc");
    expect(quiet[0]).toContain("-3 %");
    expect(text).toContain("Trattoria Aurora, Saturday 5 December 2026: NOT read in full");
    expect(text).toContain(`sales ${amount(0)} so far (usual Saturday ${amount(7312.96)}),`);
    expect(text).toContain("no exceptions in what was read so far");
    expect(text).not.toContain("-100 %");

    expect(html).toContain(`<h1 style="font-size:22px">${subject}</h1>`);
    expect(html).toContain("1 of 2 locations read: sales");
    expect(html).not.toContain("All 2 location(s)");
    const section = html.slice(html.indexOf('data-location="trattoria-aurora"'));
    expect(section).toContain("NOT read in full");
    expect(section).toContain("No exceptions in what was read so far.");
    expect(section.slice(0, section.indexOf("</section>"))).not.toContain("<p>No exceptions.</p>");
    expect(html).not.toContain("-100 %");
  });

  it("claims no figures and no quiet day when no location's day was read at all", () => {
    const notRead: DataHealth = {
      complete: false,
      proved: false,
      gaps: ["orders: not read", "reports: not read"],
      repairs: 0,
      rejects: 0,
    };
    const report = reportOf(
      [
        location("Le Petit Zinc", 0, 7699.07, notRead),
        location("Trattoria Aurora", 0, 7312.96, notRead),
      ],
      [],
    );
    const { subject, text, html } = reportMessage(report);

    expect(subject).toBe(
      "Morning report, Saturday 5 December 2026, incomplete: 0 of 2 locations read",
    );
    for (const part of [subject, text, html]) {
      expect(part).not.toMatch(/no exceptions(?! in what was read)/i);
      expect(part).not.toContain("%");
      expect(part).not.toContain("All 2 location(s)");
    }
    expect(text.split("\n")[2]).toBe(
      "No location's day is read in full (2 locations): no figures for the day yet, only what was read so far, below.",
    );
    expect(quietSection(text)).toEqual([]);
  });

  it("says in its subject and headline which read days are not yet proved", () => {
    const unproved = location("Trattoria Aurora", 5689.38, 7312.96, {
      ...PROVED,
      proved: false,
    });
    const { subject, text } = reportMessage(reportOf([zinc, unproved], [zinc, unproved]));
    expect(subject).toBe(
      "Morning report, Saturday 5 December 2026: no exceptions (not yet proved: 1 of 2 locations)",
    );
    expect(text.split("\n")[2]).toMatch(
      new RegExp(`^All 2 location\\(s\\), 1 not yet proved: sales ${amount(7462.4 + 5689.38)} `),
    );
  });
});
