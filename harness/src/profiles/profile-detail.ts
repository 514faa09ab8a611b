import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Frame } from "../charts/flame-chart";
import { badOption } from "../core/errors";
import { frameOf, type V8CpuProfile } from "./flame";

/**
 * Looking inside one frame of a V8 CPU profile: which source lines its own samples fell on. V8
 * books the time of its builtins (JSON.stringify, for one) to the JavaScript function that called
 * them, so the line is often the only place they show.
 */

export interface FrameRef {
  /** The function's name as the profile has it, e.g. "afterListener". */
  name: string;
  /** OPTIONAL: the file must end with this, e.g. "etag-slow/util.js". Default: any file. */
  file?: string;
  /**
   * OPTIONAL: the line the function starts on (1-based, as `HotFrame.line`). Anonymous functions all
   * share the name "(anonymous)": the line tells two of them in one file apart. Default: any line.
   */
  line?: number;
}

export interface LineTicks {
  /** 1-based source line. */
  line: number;
  samples: number;
  /** Share of the frame's own (self) samples that fell on this line. */
  share: number;
  /** The line's source text, trimmed; null when the file cannot be read (node: and native frames). */
  text: string | null;
}

/** "named X in a file ending Y, starting on line N", for the errors. */
const refText = (ref: FrameRef) =>
  `named ${JSON.stringify(ref.name)}${ref.file ? ` in a file ending ${JSON.stringify(ref.file)}` : ""}` +
  (ref.line === undefined ? "" : `, starting on line ${ref.line}`);

const matches = (f: Frame, ref: FrameRef) =>
  f.name === ref.name &&
  (ref.file === undefined || f.file.endsWith(ref.file)) &&
  (ref.line === undefined || f.line === ref.line);

/** The frame's self samples by source line (V8's positionTicks), most samples first; `share` of the frame's own samples, `text` the line read from the file (null when unreadable). V8 books its builtins (`JSON.stringify`) to the calling function, so a line is often the only place they show. Takes `cpuProfile(...).profile`. Throws when no frame matches. */
export function selfTicksByLine(profile: V8CpuProfile, ref: FrameRef): { samples: number; lines: LineTicks[] } {
  const byLine = new Map<number, number>();
  let url: string | null = null;
  for (const node of profile.nodes) {
    if (!matches(frameOf(node.callFrame), ref)) continue;
    url ??= node.callFrame.url;
    for (const t of node.positionTicks ?? []) byLine.set(t.line, (byLine.get(t.line) ?? 0) + t.ticks);
  }
  if (url === null) throw badOption("selfTicksByLine", `no frame ${refText(ref)} in this profile`);
  const source = sourceLines(url);
  const samples = [...byLine.values()].reduce((a, b) => a + b, 0);
  const lines = [...byLine.entries()]
    .map(([line, n]) => ({
      line,
      samples: n,
      share: samples ? n / samples : 0,
      text: source?.[line - 1]?.trim() ?? null,
    }))
    .sort((a, b) => b.samples - a.samples);
  return { samples, lines };
}

/** The lines of the file a profile's url names (a path or a file: URL); null for node:, native or unreadable. */
export function sourceLines(url: string): string[] | null {
  const file = url.startsWith("file:") ? fileURLToPath(url) : url;
  if (!path.isAbsolute(file)) return null;
  try {
    return fs.readFileSync(file, "utf8").split("\n");
  } catch {
    return null;
  }
}
