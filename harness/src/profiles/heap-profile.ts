import fs from "node:fs";
import path from "node:path";
import { probeOf } from "../apps/channel";
import type { AppRef } from "../apps/registry";
import { type StartOptions, withApp } from "../apps/start";
import type { FlameData } from "../charts/flame-chart";
import { badOption } from "../core/errors";
import { repoRoot } from "../core/paths";
import { settings } from "../core/settings";
import { withNodeFlags } from "../core/shell";
import { runLoad } from "../load/run";
import type { LoadOptions, LoadResult } from "../load/types";
import { profileDir } from "./cpu-profile";
import { heapFlame, type V8HeapProfile } from "./flame";

export interface HeapProfileOptions {
  /** The load while sampling: runLoad options except target, warmup, repeats and duration. */
  load?: Omit<LoadOptions, "target" | "warmup" | "repeats" | "duration">;
  /** Seconds of load. Default settings().profileSeconds. */
  seconds?: number;
  /**
   * true (default): every allocation sampled, also what the GC has collected by the end (the sites
   * behind GC pressure); false: only what is still alive when sampling stops (the sites behind a leak).
   */
  includeCollected?: boolean;
  /** Average bytes between two samples (V8's sampling interval). Default 32768. */
  intervalBytes?: number;
  start?: StartOptions;
}

export interface HeapProfileResult {
  app: string;
  /** The .heapprofile file: open it in Chrome DevTools' Memory tab. */
  file: string;
  /**
   * The nearest command a learner would type for the same profile: `node --heap-prof ... server.js`,
   * which writes it when the app exits. The harness drives the same sampler through the inspector
   * instead, so start-up is left out and, with `includeCollected`, what the GC collected is kept.
   */
  command: string;
  /** The command is an equivalent of what the harness did, not what ran. */
  commandKind: "equivalent";
  profile: V8HeapProfile;
  /** Widths are bytes allocated: draw it with flameChart. */
  flame: FlameData;
  load: LoadResult;
}

/**
 * A sampling heap profile of an app under load (V8's HeapProfiler, driven by the harness's probe
 * inside the app): where the bytes were allocated, by call stack. The same face as cpuProfile.
 */
export async function heapProfile(ref: AppRef, opts: HeapProfileOptions = {}): Promise<HeapProfileResult> {
  const fixed = (["warmup", "repeats", "duration"] as const).filter(
    (k) => (opts.load as LoadOptions | undefined)?.[k] !== undefined,
  );
  if (fixed.length)
    throw badOption("heapProfile", `opts.load cannot set ${fixed.join(", ")}: the profile is one run of opts.seconds`);
  return withApp(
    ref,
    async (app) => {
      const probe = probeOf(app, "a heap profile");
      const { dir, done } = profileDir("heap-profiles", app.name);
      try {
        const file = path.join(dir, `${app.name.replace(/\W+/g, "-")}.heapprofile`);
        await probe.request("heap-sampling-start", {
          intervalBytes: opts.intervalBytes ?? 32768,
          includeCollected: opts.includeCollected ?? true,
        });
        const load = await runLoad({
          connections: 100,
          label: `${app.name} (heap profile)`,
          ...opts.load,
          target: app,
          warmup: 0,
          repeats: 1,
          duration: opts.seconds ?? settings().profileSeconds,
        });
        await probe.request("heap-sampling-stop", { file });
        const profile = JSON.parse(fs.readFileSync(file, "utf8")) as V8HeapProfile;
        const command = withNodeFlags(app.command, [
          "--heap-prof",
          `--heap-prof-dir=${path.relative(repoRoot, dir)}`,
          `--heap-prof-interval=${opts.intervalBytes ?? 32768}`,
        ]);
        return { app: app.name, file, command, commandKind: "equivalent", profile, flame: heapFlame(profile), load };
      } finally {
        done();
      }
    },
    opts.start,
  );
}
