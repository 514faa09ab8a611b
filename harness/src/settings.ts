/**
 * The profile switch. WORKBOOK_PROFILE=quick gives CI short loads and fewer repeats;
 * `full` (the default) gives learners steadier numbers. Notebooks read durations from here.
 */
export interface Settings {
  name: "quick" | "full";
  /** Seconds of discarded load before the measured runs. */
  warmupSeconds: number;
  /** Seconds of each measured run. */
  durationSeconds: number;
  /** Measured runs per load test (the median and the spread are taken across them). */
  repeats: number;
  /** Seconds of load for a profiler run (clinic, --cpu-prof). */
  profileSeconds: number;
}

const PROFILES: Record<Settings["name"], Settings> = {
  quick: { name: "quick", warmupSeconds: 1, durationSeconds: 3, repeats: 3, profileSeconds: 4 },
  full: { name: "full", warmupSeconds: 3, durationSeconds: 10, repeats: 5, profileSeconds: 10 },
};

export function settings(): Settings {
  const raw = (process.env.WORKBOOK_PROFILE || "full").toLowerCase();
  if (raw !== "quick" && raw !== "full") {
    throw new Error(`WORKBOOK_PROFILE must be "quick" or "full", got ${JSON.stringify(process.env.WORKBOOK_PROFILE)}`);
  }
  return { ...PROFILES[raw] };
}
