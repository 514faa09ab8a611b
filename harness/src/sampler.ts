import fs from "node:fs";
import pidusage from "pidusage";

export interface UsageSample {
  /** Seconds since the sampler started. */
  t: number;
  /** CPU use since the previous sample, in % of one core (200 = two cores busy). */
  cpuPercent: number;
  rssMB: number;
  /** OS threads of the process (Linux only, else null). */
  threads: number | null;
}

function threadCount(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const m = /^Threads:\s+(\d+)/m.exec(status);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Samples a process's CPU and RSS (via pidusage) until stopped. */
export class UsageSampler {
  readonly samples: UsageSample[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Date.now() when the sampler was made: a sample's `t` counts from here. */
  readonly startedAt = Date.now();

  constructor(private readonly pid: number, private readonly intervalMs = 500) {}

  start(): this {
    if (this.timer) return this;
    this.timer = setInterval(() => void this.sample(), this.intervalMs);
    this.timer.unref();
    void this.sample();
    return this;
  }

  async sample(): Promise<UsageSample | null> {
    try {
      const u = await pidusage(this.pid);
      const s: UsageSample = {
        t: (Date.now() - this.startedAt) / 1000,
        cpuPercent: u.cpu,
        rssMB: u.memory / 2 ** 20,
        threads: threadCount(this.pid),
      };
      this.samples.push(s);
      return s;
    } catch {
      return null; // the process is gone; the caller notices through its exit
    }
  }

  stop(): UsageSample[] {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    pidusage.clear();
    return this.samples;
  }

  /** Seconds since the sampler was made, on the samples' clock. */
  now(): number {
    return (Date.now() - this.startedAt) / 1000;
  }

  latest(): UsageSample | undefined {
    return this.samples[this.samples.length - 1];
  }
}
