import fs from "node:fs";
import path from "node:path";
import { readings } from "./readings";

/**
 * The CPU quota and memory limit of this process's control group (cgroup v2 `cpu.max` and
 * `memory.max`; v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us` and `memory.limit_in_bytes`), the
 * tightest along the path from its group up to the root. JupyterHub (Zero to JupyterHub, The
 * Littlest JupyterHub), Binder and containers cap a learner's CPU this way: under a quota of one CPU
 * the server and the load generator share one CPU of time whatever the pinning says, and the kernel
 * enforces it per period (100 ms by default), which shows up as stalls in the latency's tail.
 */
export interface CpuQuota {
  /** CPUs of time per period the group may use (quota / period), e.g. 1 or 0.5. */
  cpus: number;
  /** Where it was read: "cgroup v2 cpu.max 100000 100000 (/user.slice/...)". */
  source: string;
  /** The cpu.stat file whose nr_throttled counts the periods this group was held back. */
  statFile: string;
}

export interface Limits {
  /** null: no CPU quota on the way to the root (or no cgroup to read). */
  cpu: CpuQuota | null;
  /** The memory limit in MiB, null when none. */
  memoryMB: number | null;
}

/** Where the cgroup file systems are mounted, and this process's /proc/self/cgroup (tests give their own). */
export interface CgroupPaths {
  root: string;
  procSelfCgroup: string;
}

const SYSTEM: CgroupPaths = { root: "/sys/fs/cgroup", procSelfCgroup: "/proc/self/cgroup" };

const read = (file: string): string | null => {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return null;
  }
};

/** A group's path and its ancestors up to the root: /a/b -> ["/a/b", "/a", "/"]. */
function upwards(group: string): string[] {
  const out: string[] = [];
  let g = group || "/";
  for (;;) {
    out.push(g);
    if (g === "/") return out;
    g = path.posix.dirname(g);
  }
}

/** One group's CPU quota: from cgroup v2's cpu.max in `dir`, or v1's cfs files; null when unlimited. */
function quotaIn(dir: string, v2: boolean, group: string): CpuQuota | null {
  if (v2) {
    const max = read(path.join(dir, "cpu.max"));
    const [quota, period] = (max ?? "max").split(/\s+/);
    if (quota === "max" || !period) return null;
    return {
      cpus: Number(quota) / Number(period),
      source: `cgroup v2 cpu.max ${max} (${group})`,
      statFile: path.join(dir, "cpu.stat"),
    };
  }
  const quota = Number(read(path.join(dir, "cpu.cfs_quota_us")) ?? -1);
  const period = Number(read(path.join(dir, "cpu.cfs_period_us")) ?? 0);
  if (!(quota > 0 && period > 0)) return null;
  return {
    cpus: quota / period,
    source: `cgroup v1 cpu.cfs_quota_us ${quota} / cpu.cfs_period_us ${period} (${group})`,
    statFile: path.join(dir, "cpu.stat"),
  };
}

/** A memory limit in MiB from a v2 memory.max or v1 memory.limit_in_bytes; null for none (v1 writes a huge number). */
function memoryIn(dir: string, v2: boolean): number | null {
  const raw = read(path.join(dir, v2 ? "memory.max" : "memory.limit_in_bytes"));
  if (raw === null || raw === "max") return null;
  const bytes = Number(raw);
  return Number.isFinite(bytes) && bytes > 0 && bytes < 2 ** 60 ? bytes / 2 ** 20 : null;
}

let system: Limits | null = null;

/**
 * The CPU quota and memory limit in force for this process: the tightest of its group and its
 * ancestors. This process's own are read once (every load and fingerprint asks), like the pinning;
 * other `paths` (tests) are read each time.
 */
export function limits(paths: CgroupPaths = SYSTEM): Limits {
  if (paths !== SYSTEM) return readLimits(paths);
  // cgroups are Linux's: with portable or no readings there is none to read (the fingerprint says so).
  system ??= readings().mode === "proc" ? readLimits(SYSTEM) : { cpu: null, memoryMB: null };
  return system;
}

function readLimits(paths: CgroupPaths): Limits {
  const lines = (read(paths.procSelfCgroup) ?? "").split("\n").filter(Boolean);
  // "0::/path" is cgroup v2; "N:cpu,cpuacct:/path" (or "N:cpu:/path") and "N:memory:/path" are v1.
  const v1 = (name: string) => {
    for (const line of lines) {
      const [, controllers, group] = line.split(":");
      if (controllers?.split(",").includes(name)) {
        const mount = fs.existsSync(path.join(paths.root, controllers))
          ? controllers
          : (["cpu,cpuacct", "cpuacct,cpu", name].find((m) => fs.existsSync(path.join(paths.root, m))) ?? name);
        return { base: path.join(paths.root, mount), group };
      }
    }
    return null;
  };
  const unified = lines.find((l) => l.startsWith("0::"))?.slice(3);
  const v2 = unified !== undefined && fs.existsSync(path.join(paths.root, "cgroup.controllers"));
  const cpuAt = v2 ? { base: paths.root, group: unified! } : v1("cpu");
  const memAt = v2 ? { base: paths.root, group: unified! } : v1("memory");
  let cpu: CpuQuota | null = null;
  if (cpuAt) {
    for (const g of upwards(cpuAt.group)) {
      const q = quotaIn(path.join(cpuAt.base, g), v2, g);
      if (q && (!cpu || q.cpus < cpu.cpus)) cpu = q;
    }
  }
  let memoryMB: number | null = null;
  if (memAt) {
    for (const g of upwards(memAt.group)) {
      const m = memoryIn(path.join(memAt.base, g), v2);
      if (m !== null && (memoryMB === null || m < memoryMB)) memoryMB = m;
    }
  }
  return { cpu, memoryMB };
}

/** The periods a group was held back by its quota: cpu.stat's nr_periods, nr_throttled and throttled time. */
export interface Throttling {
  periods: number;
  throttled: number;
  throttledMs: number;
}

/** cpu.stat now (v2: throttled_usec; v1: throttled_time in ns); null when unreadable. */
export function throttling(quota: CpuQuota | null): Throttling | null {
  if (!quota) return null;
  const text = read(quota.statFile);
  if (text === null) return null;
  const field = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1] ?? NaN);
  const usec = field("throttled_usec");
  const ns = field("throttled_time");
  const t = {
    periods: field("nr_periods"),
    throttled: field("nr_throttled"),
    throttledMs: Number.isFinite(usec) ? usec / 1000 : ns / 1e6,
  };
  return Number.isFinite(t.periods) && Number.isFinite(t.throttled) ? t : null;
}

/** What changed between two readings of throttling(). */
export function throttledBetween(a: Throttling | null, b: Throttling | null): Throttling | null {
  if (!a || !b) return null;
  return {
    periods: b.periods - a.periods,
    throttled: b.throttled - a.throttled,
    throttledMs: b.throttledMs - a.throttledMs,
  };
}
