/**
 * The stores' contract data (store-contract.test.ts): two runs of a small, hand-made chain written
 * through the sync's port, as a sync writes them. Alpha (France, on Europe/Paris) has a day of
 * five orders, one of each kind the morning report points at, one changed after its report and
 * one that vanished, a rejected order and one its report lists that no list returned; Bravo (no
 * time zone, its orders sent at +02:00) one order its report agrees with; Charlie is known only
 * by its windows (its key was rejected).
 */
import type { Order } from "../../src/api/schemas.js";
import type { SyncDestination } from "../../src/db/destination.js";
import { keyFingerprint } from "../../src/secrets.js";
import { DEVICES, devicesOf, ORDERS, PRODUCTS, REPORTS } from "../../src/streams/index.js";
import { item, location, order, payment, product, report, uuid } from "./contract-records.js";
import { storeDayPage } from "./pages.js";

export const DAY = "2026-03-02";
export const NEXT_DAY = "2026-03-03";

export const ALPHA = uuid("0000000a", 1);
export const BRAVO = uuid("0000000b", 1);
export const CHARLIE = uuid("0000000c", 1);
export const KEYS = {
  alpha: keyFingerprint("alpha-key"),
  bravo: keyFingerprint("bravo-key"),
  charlie: keyFingerprint("charlie-key"),
} as const;

export const REPORT_ALPHA = uuid("0000000d", 1);
export const REPORT_BRAVO = uuid("0000000d", 2);

export const ORDER = {
  changed: uuid("0000000e", 1),
  paidShort: uuid("0000000e", 2),
  cancelledPaid: uuid("0000000e", 3),
  trainingPaid: uuid("0000000e", 4),
  vanished: uuid("0000000e", 5),
  rejected: uuid("0000000e", 8),
  missing: uuid("0000000e", 9),
  bravo: uuid("0000000f", 1),
} as const;

const coffee = product(1, "Coffee", 4);
const cake = product(2, "Cake", 6);

/** The instants the writes are stamped with. */
export const AT = {
  firstRun: "2026-03-03T05:00:00.000Z",
  firstRunEnd: "2026-03-03T05:01:00.000Z",
  secondRun: "2026-03-04T05:00:00.000Z",
  secondRunEnd: "2026-03-04T05:01:00.000Z",
} as const;

/** Alpha's orders of DAY as first listed (all on Paris' clock, +01:00 in March). */
function alphaOrders(): Order[] {
  const at = (time: string) => `${DAY}T${time}+01:00`;
  const base = { locationId: ALPHA, reportId: REPORT_ALPHA };
  return [
    order({
      ...base,
      id: ORDER.changed,
      number: "1001",
      operator: "ann",
      closedAt: at("12:00:00"),
      items: [item(coffee, 4), item(cake, 6, { discount: 1 })],
      discount: 1,
      payments: [payment(10)],
    }),
    order({
      ...base,
      id: ORDER.paidShort,
      number: "1002",
      operator: "bob",
      closedAt: at("13:00:00"),
      items: [item(cake, 20, { discount: 2 })],
      discount: 2,
      payments: [payment(15)],
    }),
    order({
      ...base,
      id: ORDER.cancelledPaid,
      number: "1003",
      operator: "bob",
      closedAt: at("14:00:00"),
      items: [item(coffee, 5)],
      payments: [payment(5)],
      canceled: true,
    }),
    order({
      ...base,
      id: ORDER.trainingPaid,
      number: "1004",
      operator: "ann",
      closedAt: at("15:00:00"),
      items: [item(coffee, 8)],
      payments: [payment(8)],
      training: true,
    }),
    order({
      ...base,
      id: ORDER.vanished,
      number: "1005",
      operator: "ann",
      closedAt: at("16:00:00"),
      items: [item(coffee, 3)],
      payments: [payment(3)],
    }),
  ];
}

/** Order 1001 as listed again the next morning: its cake taken back after the report. */
function changedOrder(): Order {
  const [first] = alphaOrders();
  return order({
    locationId: ALPHA,
    reportId: REPORT_ALPHA,
    id: ORDER.changed,
    number: "1001",
    operator: "ann",
    closedAt: first?.closedAt as string,
    updatedAt: `${NEXT_DAY}T09:00:00+01:00`,
    items: [item(coffee, 4), item(cake, 6, { canceled: true })],
    payments: [payment(4)],
  });
}

const records = <T>(list: readonly T[]) =>
  list.map((record) => ({ record, raw: JSON.stringify(record) }));

const REJECT = {
  recordId: ORDER.rejected,
  reason: "total: expected number, received string",
  raw: JSON.stringify({ id: ORDER.rejected, total: "12" }),
};

async function writeLocations(destination: SyncDestination): Promise<void> {
  const at = AT.firstRun;
  for (const [id, name, country, key] of [
    [ALPHA, "Alpha", "FR", KEYS.alpha],
    [BRAVO, "Bravo", "DE", KEYS.bravo],
  ] as const) {
    const [valid] = records([location(id, name, country)]);
    if (!valid) throw new Error("no location");
    const devices = devicesOf(valid);
    await destination.writeLocation(
      valid,
      { syncedAt: at, apiKeyFingerprint: key },
      devices ? { list: DEVICES, records: devices } : undefined,
    );
  }
  await destination.useTimeZone(ALPHA, "Europe/Paris");
  await destination.writeList(
    PRODUCTS,
    { records: records([coffee, cake]), rejects: [] },
    { locationId: ALPHA, syncedAt: at, runId: null },
  );
}

/** Writes the two runs; answers their ids. */
export async function writeContractData(
  destination: SyncDestination,
): Promise<{ firstRun: number; secondRun: number }> {
  const firstRun = await destination.startRun("cli", AT.firstRun);
  await writeLocations(destination);
  const page = { runId: firstRun, syncedAt: AT.firstRun, rejects: [] };
  await storeDayPage(destination, REPORTS, {
    ...page,
    locationId: ALPHA,
    day: DAY,
    records: records([
      report({
        id: REPORT_ALPHA,
        locationId: ALPHA,
        number: 1,
        day: DAY,
        offset: "+01:00",
        // The sales stored: 1001 (4, once changed) and 1002 (20).
        totalSales: 24,
        orders: [
          ORDER.changed,
          ORDER.paidShort,
          ORDER.cancelledPaid,
          ORDER.trainingPaid,
          ORDER.rejected,
          ORDER.missing,
        ],
      }),
    ]),
  });
  await storeDayPage(destination, ORDERS, {
    ...page,
    locationId: ALPHA,
    day: DAY,
    records: records(alphaOrders()),
    rejects: [REJECT],
  });
  await storeDayPage(destination, REPORTS, {
    ...page,
    locationId: BRAVO,
    day: DAY,
    records: records([
      report({
        id: REPORT_BRAVO,
        locationId: BRAVO,
        number: 1,
        day: DAY,
        offset: "+02:00",
        totalSales: 7,
        orders: [ORDER.bravo],
      }),
    ]),
  });
  await storeDayPage(destination, ORDERS, {
    ...page,
    locationId: BRAVO,
    day: DAY,
    records: records([
      order({
        id: ORDER.bravo,
        locationId: BRAVO,
        reportId: REPORT_BRAVO,
        number: "2001",
        operator: "ann",
        closedAt: `${DAY}T12:00:00+02:00`,
        items: [item(coffee, 7)],
        payments: [payment(7)],
      }),
    ]),
  });
  const window = { apiTotalCount: 1, storedCount: 1, lastError: null, runId: firstRun };
  for (const locationId of [ALPHA, BRAVO]) {
    for (const stream of ["reports", "orders"] as const)
      await destination.recordWindow(
        { ...window, locationId, stream, day: DAY, status: "complete" },
        AT.firstRun,
      );
  }
  await destination.recordWindow(
    { ...window, locationId: ALPHA, stream: "orders", day: NEXT_DAY, status: "open" },
    AT.firstRun,
  );
  await destination.recordWindow(
    {
      ...window,
      locationId: CHARLIE,
      stream: "orders",
      day: DAY,
      status: "failed",
      apiTotalCount: null,
      storedCount: null,
      lastError: "the API refused the key",
    },
    AT.firstRun,
  );
  await destination.saveState(ALPHA, "start_date", DAY, AT.firstRun);
  await destination.saveState(ALPHA, "audit_pace", '{"period":30}', AT.firstRun);
  await destination.saveState(CHARLIE, "utc_offset_minutes", "-300", AT.firstRun);
  await destination.finishRun(firstRun, {
    status: "succeeded",
    finishedAt: AT.firstRunEnd,
    stats: {
      retries: 2,
      rateLimited: 1,
      locations: [
        { key: KEYS.alpha, locationId: ALPHA, name: "Alpha", label: null, error: null },
        { key: KEYS.bravo, locationId: BRAVO, name: "Bravo", label: null, error: null },
      ],
    },
    requests: 12,
    error: null,
  });

  const secondRun = await destination.startRun("daemon", AT.secondRun);
  const [, ...unchanged] = alphaOrders();
  await storeDayPage(destination, ORDERS, {
    runId: secondRun,
    syncedAt: AT.secondRun,
    locationId: ALPHA,
    day: DAY,
    records: records([changedOrder(), ...unchanged.slice(0, 3)]),
    rejects: [REJECT],
  });
  await destination.markDeleted(ORDERS, [ORDER.vanished], AT.secondRun);
  await destination.recordWindow(
    {
      ...window,
      runId: secondRun,
      locationId: ALPHA,
      stream: "orders",
      day: DAY,
      status: "complete",
    },
    AT.secondRun,
  );
  await destination.recordAuditProof(ALPHA, "reports", DAY, AT.secondRun);
  await destination.recordRepair({
    locationId: ALPHA,
    stream: "orders",
    day: DAY,
    foundBy: "audit",
    foundAt: AT.secondRun,
    apiCount: 5,
    storedCount: 5,
    missing: 0,
    changed: 1,
    extra: 0,
    runId: secondRun,
    outcome: "repaired",
    inserted: 0,
    updated: 1,
    deleted: 0,
  });
  await destination.writeList(
    PRODUCTS,
    { records: records([coffee]), rejects: [] },
    { locationId: ALPHA, syncedAt: AT.secondRun, runId: secondRun },
  );
  if (destination.claims) {
    const turn = await destination.claims.claim(KEYS.alpha, secondRun);
    if (turn.outcome !== "granted") throw new Error(`the turn was not granted: ${turn.outcome}`);
    await destination.claims.release(turn.claimId, "done");
  }
  await destination.finishRun(secondRun, {
    status: "failed",
    finishedAt: AT.secondRunEnd,
    stats: {
      locations: [
        {
          key: KEYS.charlie,
          locationId: null,
          name: null,
          label: "Charlie",
          error: "the API refused the key",
          keyRejected: true,
        },
      ],
    },
    requests: 3,
    error: "Charlie: the API refused the key",
  });
  return { firstRun, secondRun };
}
