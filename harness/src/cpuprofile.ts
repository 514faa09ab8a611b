import fs from "node:fs";
import path from "node:path";
import { startApp, StartOptions } from "./apps";
import { AppRef } from "./registry";
import { runLoad, LoadOptions, LoadResult } from "./load";
import { settings } from "./settings";
import { resultsDir, ensureDir } from "./paths";
import { analyse, FlameData, V8CpuProfile } from "./flame";

export interface CpuProfileOptions {
  /**
   * The load to apply while profiling: runLoad options except target, warmup, repeats and
   * duration (the profile is one run of `seconds`, no warm-up: setting them throws). Default: 100 connections on "/".
   */
  load?: Omit<LoadOptions, "target" | "warmup" | "repeats" | "duration">;
  /** Seconds of load. Default: settings().profileSeconds. */
  seconds?: number;
  /** Sampling interval in microseconds (node's --cpu-prof-interval). Default 1000. */
  intervalUs?: number;
  start?: StartOptions;
  /** How long the app may take to exit (and write its profile) after SIGINT. Default 15000 ms. */
  stopTimeoutMs?: number;
}

export interface CpuProfileResult {
  app: string;
  /** The .cpuprofile file: open it in Chrome DevTools or speedscope for an interactive view. */
  file: string;
  profile: V8CpuProfile;
  flame: FlameData;
  load: LoadResult;
}

/**
 * Profile an app under load with `node --cpu-prof`: start it with the flag, load it, stop it
 * with SIGINT (the app must exit cleanly for V8 to write the profile), then analyse.
 */
export async function cpuProfile(ref: AppRef, opts: CpuProfileOptions = {}): Promise<CpuProfileResult> {
  const name = typeof ref === "string" ? ref : ref.name ?? path.basename(ref.entry);
  const fixed = (["warmup", "repeats", "duration"] as const).filter((k) => (opts.load as LoadOptions | undefined)?.[k] !== undefined);
  if (fixed.length) throw new Error(`cpuProfile: opts.load cannot set ${fixed.join(", ")}: the profile is one run of opts.seconds (default settings().profileSeconds) with no warm-up`);
  const dir = ensureDir(path.join(resultsDir, "profiles", `${name}-${Date.now()}`));
  const interval = opts.intervalUs ?? 1000;
  const app = await startApp(ref, {
    ...opts.start,
    nodeArgs: [...(opts.start?.nodeArgs ?? []), "--cpu-prof", `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${interval}`],
  });
  let load: LoadResult;
  try {
    load = await runLoad({ connections: 100, label: `${name} (profiling)`, ...opts.load, target: app, warmup: 0, repeats: 1, duration: opts.seconds ?? settings().profileSeconds });
  } finally {
    await app.stop({ timeoutMs: opts.stopTimeoutMs ?? 15_000 });
  }
  const exit = app.exitInfo();
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  if (files.length === 0) {
    throw new Error(`no CPU profile was written for "${name}" (exit code ${exit?.code}, signal ${exit?.signal}): ` +
      `the app must exit cleanly on SIGINT for V8 to write it.\n--- stderr (tail) ---\n${app.stderr()}`);
  }
  const file = path.join(dir, files[0]);
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as V8CpuProfile;
  return { app: name, file, profile, flame: analyse(profile), load };
}
