import fs from "node:fs";
import path from "node:path";

/**
 * What clinic flame sampled, as data: its data folder holds `<name>.clinic-flame-samples`, the
 * ticks 0x collected with `node --prof` (one stack per tick, outermost frame first, each frame
 * `{ name, type }` as V8's `--prof-process --preprocess` names it).
 */

/** One frame of clinic flame's samples. Shares are of all ticks. */
export interface FlameTickFrame {
  /** "fn file:line:col" for JavaScript; a C++ symbol, a builtin or a library path otherwise. */
  name: string;
  /** "JS", "CPP", "SHARED_LIB" or "CODE" (builtins, stubs, handlers). */
  type: string;
  /** A JavaScript frame in the app's own folder (not under node_modules). */
  app: boolean;
  /** Share of ticks with this frame on top of the stack. */
  selfShare: number;
  /** Share of ticks with this frame anywhere on the stack. */
  totalShare: number;
}

export interface FlameSamples {
  ticks: number;
  /** Frames that were on top of the stack, by self share, hottest first. */
  top: FlameTickFrame[];
  /** The app's own frames by self share, then total share (empty without `appDir`). */
  app: FlameTickFrame[];
}

/**
 * Summarise the samples in a clinic flame data folder. `appDir` OPTIONAL: the app's folder, which
 * marks its own frames (default: none marked). `n` OPTIONAL: frames per list (default 20). A tick
 * address V8 could not resolve is left out of its stack by 0x, so its time counts as the self
 * time of the nearest resolved frame below it. Throws when the folder holds no samples file.
 */
export function readFlameSamples(dataDir: string, appDir: string | null = null, n = 20): FlameSamples {
  const file = fs.existsSync(dataDir)
    ? fs.readdirSync(dataDir).find((f) => f.endsWith(".clinic-flame-samples"))
    : undefined;
  if (!file) throw new Error(`no *.clinic-flame-samples in ${dataDir}: not a clinic flame data folder`);
  const ticks = JSON.parse(fs.readFileSync(path.join(dataDir, file), "utf8")) as { name: string; type?: string }[][];
  if (!Array.isArray(ticks)) throw new Error(`${file} is not a list of ticks`);
  const own = appDir === null ? null : path.join(appDir, path.sep);
  const frames = new Map<string, FlameTickFrame>();
  const frameOf = (f: { name: string; type?: string }): FlameTickFrame => {
    const type = f.type ?? "JS";
    const key = `${type} ${f.name}`;
    let frame = frames.get(key);
    if (!frame) {
      const app =
        own !== null && type === "JS" && f.name.includes(own) && !f.name.includes(`${path.sep}node_modules${path.sep}`);
      frame = { name: f.name, type, app, selfShare: 0, totalShare: 0 };
      frames.set(key, frame);
    }
    return frame;
  };
  for (const stack of ticks) {
    if (!Array.isArray(stack) || stack.length === 0) continue;
    frameOf(stack[stack.length - 1]).selfShare++;
    for (const frame of new Set(stack.map(frameOf))) frame.totalShare++;
  }
  const all = [...frames.values()];
  for (const f of all) {
    f.selfShare /= ticks.length;
    f.totalShare /= ticks.length;
  }
  all.sort((a, b) => b.selfShare - a.selfShare || b.totalShare - a.totalShare);
  return {
    ticks: ticks.length,
    top: all.filter((f) => f.selfShare > 0).slice(0, n),
    app: all.filter((f) => f.app).slice(0, n),
  };
}
