import fs from "node:fs";
import path from "node:path";
import { startApp, StartOptions } from "./apps";
import { AppRef, resolveApp } from "./registry";
import { settings } from "./settings";
import { repoRoot, resultsDir, ensureDir } from "./paths";
import { loopbackUrl } from "./loopback";
import { FlameSamples, readFlameSamples } from "./clinic-samples";

export { FlameSamples, FlameTickFrame, readFlameSamples } from "./clinic-samples";

/**
 * clinic doctor and clinic flame, with the same face as cpuProfile: options in, a result out.
 * clinic 13 is unmaintained; what it needs on current Node (checked on Node 26):
 *   - NO_INSIGHT=1, or without a terminal it waits on an analytics prompt and exits silently;
 *   - `--on-port <load command>`: clinic runs it once the app listens, then stops the app
 *     itself and writes the report, the path that works reliably (flame stopped by SIGINT to
 *     clinic alone hangs);
 *   - `node` on PATH must be the pinned Node, for the app and for the load command.
 * bubbleprof is left out: with --on-port the app never exits on Node 20-26 and no report comes.
 */
export interface ClinicOptions {
  /** Seconds of load (autocannon, 100 connections by default). Default: settings().profileSeconds. */
  seconds?: number;
  connections?: number;
  /** Path to load. Default: the app's registry probe path, else "/". */
  path?: string;
  start?: StartOptions;
  /** Hard limit for the whole run, analysis included. Default 180000 ms. */
  timeoutMs?: number;
}

export interface DoctorProcessStat {
  timestamp: number;
  delay: number;
  cpu: number;
  memory: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers?: number };
  handles: number;
  loopUtilization?: number;
}

export interface DoctorData {
  traceEvent: unknown[];
  processStat: DoctorProcessStat[];
  analysis: { issues: Record<string, unknown>; issueCategory: string; interval?: number[] };
}

export interface ClinicResult {
  tool: "doctor" | "flame";
  app: string;
  /** The HTML report: open it in a browser for clinic's own interactive view. */
  html: string;
  /** clinic's collected data folder. */
  dataDir: string;
  /** autocannon's summary of the load clinic ran: average req/s, errors, non-2xx. */
  load: { reqPerSec: number; errors: number; non2xx: number } | null;
  seconds: number;
}

export interface DoctorResult extends ClinicResult {
  tool: "doctor";
  data: DoctorData;
}

export interface FlameResult extends ClinicResult {
  tool: "flame";
  data: FlameSamples;
}

const CLINIC = path.join(repoRoot, "node_modules", "clinic", "bin.js");
const AUTOCANNON = path.join(repoRoot, "node_modules", "autocannon", "autocannon.js");

async function runClinic(tool: "doctor" | "flame", ref: AppRef, opts: ClinicOptions): Promise<ClinicResult> {
  const app = resolveApp(ref);
  const dest = ensureDir(path.join(resultsDir, "clinic", `${app.name.replace(/\W+/g, "-")}-${tool}-${Date.now()}`));
  const seconds = opts.seconds ?? settings().profileSeconds;
  const loadJson = path.join(dest, "load.json");
  const route = ((u) => u.pathname + u.search)(loopbackUrl("http://127.0.0.1", opts.path ?? app.probe ?? "/")).replace(/[$`\\]/g, encodeURIComponent); // a path on loopback, inert inside the shell's double quotes
  const node = process.execPath;
  // $PORT is set by clinic for the --on-port command; the target is always loopback.
  const load = `"${node}" "${AUTOCANNON}" -c ${opts.connections ?? 100} -d ${seconds} -j "http://127.0.0.1:$PORT${route}" > "${loadJson}"`;
  const started = Date.now();
  const handle = await startApp(ref, {
    ...opts.start,
    probe: false, // clinic's own load is the first traffic: keeps its report clean
    startTimeoutMs: opts.start?.startTimeoutMs ?? 30_000,
    env: { ...opts.start?.env, NO_INSIGHT: "1", PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ""}` },
    wrap: [node, CLINIC, tool, "--open=false", "--name", app.name.replace(/\W+/g, "-"), "--dest", dest, "--on-port", load, "--"],
  });
  const timeoutMs = opts.timeoutMs ?? 180_000;
  const timer = new Promise<null>((r) => setTimeout(() => r(null), timeoutMs).unref());
  if ((await Promise.race([handle.exited, timer])) === null) {
    await handle.stop();
    throw new Error(`clinic ${tool} on "${app.name}" did not finish within ${timeoutMs} ms; stopped.\n--- output (tail) ---\n${handle.stdout()}\n${handle.stderr()}`);
  }
  const html = fs.readdirSync(dest).find((f) => f.endsWith(`.clinic-${tool}.html`));
  const dataDir = fs.readdirSync(dest).find((f) => f.endsWith(`.clinic-${tool}`));
  if (!html || !dataDir) {
    throw new Error(`clinic ${tool} on "${app.name}" wrote no report (exit ${JSON.stringify(handle.exitInfo())}).\n--- output (tail) ---\n${handle.stdout()}\n${handle.stderr()}`);
  }
  let summary: ClinicResult["load"] = null;
  try {
    const r = JSON.parse(fs.readFileSync(loadJson, "utf8"));
    summary = { reqPerSec: r.requests.average, errors: r.errors, non2xx: r.non2xx };
  } catch { /* the load's own output is optional */ }
  return { tool, app: app.name, html: path.join(dest, html), dataDir: path.join(dest, dataDir), load: summary, seconds: (Date.now() - started) / 1000 };
}

/** Pull `{traceEvent, processStat, analysis}` out of a doctor HTML report. */
export function readDoctorData(htmlPath: string): DoctorData {
  const html = fs.readFileSync(htmlPath, "utf8");
  const open = /<script type="application\/json" id="clinic-data">/.exec(html);
  if (!open) throw new Error(`no clinic-data <script> in ${htmlPath}: not a doctor report, or truncated`);
  const start = open.index + open[0].length;
  const end = html.indexOf("</script>", start);
  if (end < 0) throw new Error(`the clinic-data <script> in ${htmlPath} is not closed: truncated report?`);
  return JSON.parse(html.slice(start, end)) as DoctorData;
}

/** clinic doctor on an app under load: the report, its sampled data and its verdict. */
export async function clinicDoctor(ref: AppRef, opts: ClinicOptions = {}): Promise<DoctorResult> {
  const r = await runClinic("doctor", ref, opts);
  return { ...r, tool: "doctor", data: readDoctorData(r.html) };
}

/** clinic flame on an app under load: the interactive HTML report, its data folder and a summary of its samples. */
export async function clinicFlame(ref: AppRef, opts: ClinicOptions = {}): Promise<FlameResult> {
  const r = await runClinic("flame", ref, opts);
  return { ...r, tool: "flame", data: readFlameSamples(r.dataDir, path.dirname(resolveApp(ref).entryPath)) };
}
