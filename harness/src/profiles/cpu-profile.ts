import fs from "node:fs";
import path from "node:path";
import { type AppRef, resolveApp } from "../apps/registry";
import { exitText } from "../apps/spawn";
import { type StartOptions, startApp } from "../apps/start";
import type { FlameData } from "../charts/flame-chart";
import { badOption, WorkbookError } from "../core/errors";
import { repoRoot, resultsDir } from "../core/paths";
import { settings } from "../core/settings";
import { runLoad } from "../load/run";
import type { LoadOptions, LoadResult } from "../load/types";
import { cpuFlame, type V8CpuProfile } from "./flame";

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
  /** The command that wrote it (`node --cpu-prof --cpu-prof-dir=... server.js`); `load.command` is the load that ran meanwhile. */
  command: string;
  profile: V8CpuProfile;
  flame: FlameData;
  load: LoadResult;
}

/** A new folder for one profile's files, named after the app; `done(ok)` removes it when it holds nothing. */
export function profileDir(kind: string, name: string): { dir: string; done: () => void } {
  const dir = path.join(resultsDir, kind, `${name.replace(/\W+/g, "-")}-${Date.now()}`);
  fs.mkdirSync(dir, { recursive: true });
  return {
    dir,
    done: () => {
      if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmSync(dir, { recursive: true });
    },
  };
}

/**
 * Profile an app under load with `node --cpu-prof`: start it with the flag, load it, stop it with
 * SIGINT (the harness's probe makes any app exit cleanly on it, so V8 writes the profile), then
 * analyse. A failure leaves no empty folder behind. `load`: `runLoad` options but `target`, `warmup`,
 * `repeats` and `duration` (the profile is one run of `seconds`, default `settings().profileSeconds`,
 * with no warm-up; any of those throws `WB_BAD_OPTION` before the app starts); default 100
 * connections on `/`. `intervalUs` (`--cpu-prof-interval`) default 1000; `stopTimeoutMs` default 15000.
 * `file` is the `.cpuprofile` under `results/profiles/<app>-<time>/` (Chrome DevTools, speedscope);
 * `command` the app's command with the flags that wrote it, `load.command` the load that ran
 * meanwhile (`commandText` prints both). Throws `WB_NO_REPORT`, with the app's output, when no profile
 * was written (an app whose own SIGINT handler never exits, or that was killed).
 *
 * @example
 * const p = await wb.cpuProfile("etag-slow", { load: { path: "/seed/v1" } });
 * console.log(wb.hotTable(p.flame, 8));
 */
export async function cpuProfile(ref: AppRef, opts: CpuProfileOptions = {}): Promise<CpuProfileResult> {
  const name = resolveApp(ref).name;
  const fixed = (["warmup", "repeats", "duration"] as const).filter(
    (k) => (opts.load as LoadOptions | undefined)?.[k] !== undefined,
  );
  if (fixed.length) {
    throw badOption(
      "cpuProfile",
      `opts.load cannot set ${fixed.join(", ")}: the profile is one run of opts.seconds (default settings().profileSeconds) with no warm-up`,
    );
  }
  const { dir, done } = profileDir("profiles", name);
  try {
    const interval = opts.intervalUs ?? 1000;
    const app = await startApp(ref, {
      ...opts.start,
      nodeArgs: [
        ...(opts.start?.nodeArgs ?? []),
        "--cpu-prof",
        `--cpu-prof-dir=${dir}`,
        `--cpu-prof-interval=${interval}`,
      ],
    });
    let load: LoadResult;
    try {
      load = await runLoad({
        connections: 100,
        label: `${name} (profiling)`,
        ...opts.load,
        target: app,
        warmup: 0,
        repeats: 1,
        duration: opts.seconds ?? settings().profileSeconds,
      });
    } finally {
      await app.stop({ timeoutMs: opts.stopTimeoutMs ?? 15_000 });
    }
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
    if (files.length === 0) {
      const exit = app.exitInfo();
      throw new WorkbookError("WB_NO_REPORT", `no CPU profile was written for "${name}" (it ${exitText(exit)})`, {
        app: name,
        stdout: app.stdout(),
        stderr: app.stderr(),
        hint: "V8 writes the profile when the process exits on its own: an app whose SIGINT handler never calls process.exit, or that is killed, writes none",
      });
    }
    const file = path.join(dir, files[0]);
    const profile = JSON.parse(fs.readFileSync(file, "utf8")) as V8CpuProfile;
    const command = app.command.replace(dir, path.relative(repoRoot, dir));
    return { app: name, file, command, profile, flame: cpuFlame(profile), load };
  } finally {
    done();
  }
}
