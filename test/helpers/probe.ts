/** Probing a simulator that plays one variation of the API, with the checks every probe must
 * pass: the simulator saw exactly the requests the report counts, never more than the budget,
 * and no key appears anywhere in the report. */
import { expect } from "vitest";
import { DEFAULT_API_PATHS } from "../../src/api/paths.js";
import type { Finding, ProbeFindings, SettingFinding, Topic } from "../../src/probe/findings.js";
import { type ProbeOptions, runProbe } from "../../src/probe/probe.js";
import { PROBE_BUDGET } from "../../src/probe/probe-http.js";
import {
  type Simulator,
  type SimulatorOptions,
  startSimulator,
} from "../../src/simulator/server.js";
import { TEST_TODAY } from "./simulator.js";

/** Small, but over 100 orders in all, so that size=101 shows a cap by its length too. */
export const PROBE_DATASET: SimulatorOptions = {
  seed: 7,
  locations: 2,
  days: 8,
  today: TEST_TODAY,
  ordersPerDay: [20, 40],
};

export interface ProbeRun {
  report: ProbeFindings;
  /** Requests the simulator served. */
  served: number;
  keys: string[];
}

export async function probeSimulator(
  simulator: Partial<SimulatorOptions> = {},
  options: Partial<ProbeOptions> & {
    prepare?: (sim: Simulator) => void;
    /** Keys appended to the simulator's own (ones it never issued). */
    extraKeys?: string[];
  } = {},
): Promise<ProbeRun> {
  const sim = await startSimulator({ ...PROBE_DATASET, ...simulator });
  try {
    const { prepare, extraKeys = [], ...probe } = options;
    prepare?.(sim);
    const report = await runProbe({
      apiUrl: sim.url,
      apiKeys: [...sim.keys, ...extraKeys],
      authScheme: "",
      paths: DEFAULT_API_PATHS,
      paceMs: 0,
      ...probe,
    });
    const served = sim.stats.snapshot().total;
    expect(report.requests.sent).toBe(served);
    expect(served).toBeLessThanOrEqual(options.budget ?? PROBE_BUDGET);
    const text = JSON.stringify(report);
    for (const key of [...sim.keys, ...extraKeys, ...(probe.apiKeys ?? [])]) {
      expect(text).not.toContain(key);
    }
    return { report, served, keys: sim.keys };
  } finally {
    await sim.close();
  }
}

export function findingOf(report: ProbeFindings, topic: Topic): Finding {
  const finding = report.findings.find((f) => f.topic === topic);
  if (!finding) throw new Error(`no finding about ${topic}`);
  return finding;
}

export function settingOf(report: ProbeFindings, name: SettingFinding["name"]): SettingFinding {
  const setting = report.settings.find((s) => s.name === name);
  if (!setting) throw new Error(`no setting ${name}`);
  return setting;
}

/** The settings as NAME → value (null when not determined). */
export function settingValues(report: ProbeFindings): Record<string, string | null> {
  return Object.fromEntries(report.settings.map((s) => [s.name, s.value]));
}
