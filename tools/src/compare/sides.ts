import fs from "node:fs";
import path from "node:path";
import { type AppRef, repoRoot, WorkbookError } from "@workbook/harness";
import { resolveApp, runtimeByName } from "@workbook/harness/internal";

/** One side of a comparison: a server file (or an app of the registry), on a runtime, with its environment. */
export interface CompareSide {
  /** REQUIRED: a server file (any Node server: it may listen on PORT or a port of its own) or a registry name. */
  app: AppRef;
  /** OPTIONAL: how prose names it. Default: its path from the workbook's folder, its runtime when not the default. */
  label?: string;
  /** OPTIONAL: a runtime of `make runtimes` by name ("node24", "node22", "bun") or a path. Default: the workbook's Node. */
  runtime?: string;
  /** OPTIONAL: extra environment for the server. */
  env?: Record<string, string>;
  /** OPTIONAL: the server's working folder. Default: the file's own folder (a registry app: the workbook's). */
  cwd?: string;
}

/** A side, checked and resolved: what compare() starts. */
export interface ResolvedSide {
  side: CompareSide;
  label: string;
  /** The server file, absolute. */
  file: string;
  /** The runtime's binary, or undefined for the workbook's Node. */
  runtime: string | undefined;
  /** "Node 26.10.0", "Node 24.11.0", "Bun 1.3.2". */
  runtimeTitle: string;
}

const shown = (file: string) => {
  const rel = path.relative(repoRoot, file);
  return rel.startsWith("..") || path.isAbsolute(rel) ? file : rel;
};

function runtimeOf(name: string | undefined, which: string): { binary: string | undefined; title: string } {
  if (name === undefined || name === "node26") return { binary: undefined, title: `Node ${process.versions.node}` };
  if (name.includes("/")) {
    if (!fs.existsSync(name))
      throw new WorkbookError("WB_BAD_OPTION", `${which}'s runtime ${name} does not exist`, {
        hint: "give a runtime's path, or a name: node22, node24 or bun (installed by make runtimes)",
      });
    return { binary: name, title: path.basename(name) };
  }
  const r = runtimeByName(name);
  if (!r.present)
    throw new WorkbookError("WB_BAD_OPTION", `${which}'s runtime ${r.name} is not available: ${r.missing}`, {
      hint: "run `make runtimes` once (it fetches Node 22, Node 24 and Bun), then compare again",
    });
  return { binary: r.binary, title: r.title };
}

/** Resolve and check a side: the file exists, the runtime is there. Throws WB_APP_NOT_FOUND or WB_BAD_OPTION with the fix. */
export function resolveSide(given: CompareSide | AppRef, which: "A" | "B"): ResolvedSide {
  const side: CompareSide = typeof given === "object" && "app" in given ? given : { app: given };
  let file: string;
  try {
    file = resolveApp(side.app).entryPath;
  } catch (err) {
    const e = err as WorkbookError;
    throw new WorkbookError(e.code ?? "WB_APP_NOT_FOUND", `${which}: ${e.summary ?? e.message}`, { hint: e.hint });
  }
  const rt = runtimeOf(side.runtime, which);
  const env = Object.entries(side.env ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  const label =
    side.label ?? [shown(file), side.runtime ? `on ${rt.title}` : "", env ? `(${env})` : ""].filter(Boolean).join(" ");
  return { side, label, file, runtime: rt.binary, runtimeTitle: rt.title };
}

/** The same server twice: the same file, runtime and environment. */
export function sameServer(a: ResolvedSide, b: ResolvedSide): boolean {
  return (
    a.file === b.file &&
    a.runtime === b.runtime &&
    JSON.stringify(a.side.env ?? {}) === JSON.stringify(b.side.env ?? {})
  );
}

/** A path as `make compare` takes it: from the workbook's folder when inside it. */
export const makePath = shown;
