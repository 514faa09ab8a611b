// clinic doctor (https://clinicjs.org/doctor/) for notebook 01, beside its own helpers
// (01-slow-etag-server.ts): run the one way that still works on Node 26, its report read back, its
// samples drawn and its verdict and sampling said. Section 2 of notebook 01 alone uses it.
// tests/unit/notebook-01.test.js and tests/integration/clinic.test.js require this file.
import fs from "node:fs";
import path from "node:path";
import * as wb from "@workbook/harness";
/** One of doctor's samples (its `processStat`). doctor's `cpu` is a fraction of one core (1 = 100 %). */
export interface DoctorProcessStat {
  timestamp: number;
  delay: number;
  cpu: number;
  memory: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers?: number };
  handles: number;
  loopUtilization?: number;
}

/** What a doctor report holds: V8's trace events (its GCs among them), the samples, doctor's verdict. */
export interface DoctorData {
  traceEvent: unknown[];
  processStat: DoctorProcessStat[];
  analysis: { issues: Record<string, unknown>; issueCategory: string; interval?: number[] };
}

export interface DoctorOptions {
  /** Seconds of load (autocannon). Default: `wb.settings().profileSeconds`. */
  seconds?: number;
  /** autocannon's connections. Default 100. */
  connections?: number;
  /** The path to load. Default "/". */
  path?: string;
  /** How the app starts (`wb.withApp`'s options); clinic is put in front of it. */
  start?: wb.StartOptions;
  /** Hard limit for the whole run, clinic's analysis included. Default 180000 ms. */
  timeoutMs?: number;
}

export interface DoctorResult {
  app: string;
  /** doctor's HTML report: open it in a browser for its own interactive view. */
  html: string;
  /** What ran, from the workbook's folder: clinic, in front of the app; its load is in `--on-port`. */
  command: string;
  /** autocannon's summary of the load clinic ran; null when it wrote none. */
  load: { reqPerSec: number; errors: number; non2xx: number } | null;
  /** Seconds the whole run took, clinic's analysis included. */
  seconds: number;
  data: DoctorData;
  /** How densely doctor sampled under load: its timer waits on the app's loop, so a blocked loop starves it. */
  sampling: DoctorSampling;
}

/**
 * clinic doctor on an app under autocannon's load: its report, its samples and its verdict. clinic 13
 * is no longer maintained; on Node 26 it works when run as here: `NO_INSIGHT=1` (without a terminal it
 * otherwise waits on an analytics prompt and exits silently), the pinned Node first on `PATH`, and the
 * load (autocannon, on the generator's CPU) given to `--on-port`, after which clinic stops the app and
 * writes its report; the app starts with `listen: false`, and the run waits for clinic to finish. (clinic
 * flame stopped by SIGINT hangs, and bubbleprof's app never exits on Node 20-26 with `--on-port`: both
 * left out.) The report goes under `results/clinic/<app>-doctor-<time>/`. Throws `WB_TIMEOUT` past
 * `timeoutMs` and `WB_NO_REPORT` when clinic wrote no report, each with the end of clinic's output.
 */
export async function clinicDoctor(app: wb.AppRef, opts: DoctorOptions = {}): Promise<DoctorResult> {
  const name = (typeof app === "string" ? app : (app.name ?? app.entry)).replace(/\W+/g, "-");
  const results = path.resolve(wb.repoRoot, process.env.WORKBOOK_RESULTS_DIR || "results");
  const dest = path.join(results, "clinic", `${name}-doctor-${Date.now()}`);
  fs.mkdirSync(dest, { recursive: true });
  const bin = (p: string) => path.join(wb.repoRoot, "node_modules", p);
  const node = process.execPath;
  const pathVar = `${path.dirname(node)}${path.delimiter}${process.env.PATH}`;
  const seconds = opts.seconds ?? wb.settings().profileSeconds;
  const loadJson = path.join(dest, "load.json");
  // A path on loopback, inert inside the shell's double quotes. $PORT is clinic's, for the --on-port command.
  const url = new URL(opts.path ?? "/", "http://127.0.0.1");
  const route = (url.pathname + url.search).replace(/[$`\\"]/g, encodeURIComponent);
  const p = wb.pinning();
  const onCore = opts.start?.pin !== false && p.enabled ? `taskset -c ${p.generator} ` : "";
  const load =
    `${onCore}"${node}" "${bin("autocannon/autocannon.js")}" -c ${opts.connections ?? 100} -d ${seconds} ` +
    `-j "http://127.0.0.1:$PORT${route}" > "${loadJson}"`;
  const wrap = [node, bin("clinic/bin.js"), "doctor", "--open=false", "--name", name, "--dest", dest];
  const started = Date.now();
  const timeoutMs = opts.timeoutMs ?? 180_000;
  try {
    const { command, report } = await wb.withApp(
      app,
      async (handle) => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), timeoutMs);
        });
        const exit = await Promise.race([handle.exited, late]).finally(() => clearTimeout(timer));
        const output = { app: name, stdout: handle.stdout(), stderr: handle.stderr() };
        if (exit === null)
          throw new wb.WorkbookError(
            "WB_TIMEOUT",
            `clinic doctor on "${name}" did not finish in ${timeoutMs} ms`,
            output,
          );
        const report = fs.readdirSync(dest).find((f) => f.endsWith(".clinic-doctor.html"));
        if (!report)
          throw new wb.WorkbookError(
            "WB_NO_REPORT",
            `clinic doctor on "${name}" wrote no report (exit ${JSON.stringify(exit)})`,
            {
              ...output,
              hint: "clinic needs the app to listen within its own start time and to exit when clinic stops it",
            },
          );
        // As a learner types it from the workbook's folder: the pinned Node first on their own PATH (the
        // command's other paths are already written from there), however the shell quoted the PATH it ran with.
        const typed = handle.command.replace(
          /(^|\s)PATH=('(?:[^']|'\\'')*'|\S+)/,
          '$1PATH="$PWD/node_modules/node/bin:$PATH"',
        );
        return { command: typed, report };
      },
      {
        ...opts.start,
        listen: false, // clinic waits for the port, loads it and ends the app: this waits for clinic
        env: { ...opts.start?.env, NO_INSIGHT: "1", PATH: pathVar },
        wrap: [...wrap, "--on-port", load, "--"],
      },
    );
    const html = path.join(dest, report);
    const data = readDoctorData(html);
    return {
      app: name,
      html,
      command,
      load: readLoadSummary(loadJson),
      seconds: (Date.now() - started) / 1000,
      data,
      sampling: doctorSampling(data),
    };
  } finally {
    if (fs.readdirSync(dest).length === 0) fs.rmSync(dest, { recursive: true });
  }
}

/** autocannon's `-j` summary (average req/s, errors, non-2xx), or null when it wrote none. */
function readLoadSummary(file: string): DoctorResult["load"] {
  try {
    const r = JSON.parse(fs.readFileSync(file, "utf8"));
    return { reqPerSec: r.requests.average, errors: r.errors, non2xx: r.non2xx };
  } catch {
    return null;
  }
}

/** Pull `{ traceEvent, processStat, analysis }` out of a doctor HTML report; `WB_NO_REPORT` when it is not one. */
export function readDoctorData(htmlPath: string): DoctorData {
  const html = fs.readFileSync(htmlPath, "utf8");
  const open = /<script type="application\/json" id="clinic-data">/.exec(html);
  if (!open) throw new wb.WorkbookError("WB_NO_REPORT", `no clinic-data <script> in ${htmlPath}: not a doctor report`);
  const start = open.index + open[0].length;
  const end = html.indexOf("</script>", start);
  if (end < 0) throw new wb.WorkbookError("WB_NO_REPORT", `the clinic-data <script> in ${htmlPath} is not closed`);
  return JSON.parse(html.slice(start, end)) as DoctorData;
}

/** One of doctor's samples as a row to read and to draw. */
export interface DoctorRow {
  /** Seconds since doctor's first sample. */
  t: number;
  delayMs: number;
  cpuPercent: number;
  heapUsedMB: number;
  heapTotalMB: number;
  rssMB: number;
  handles: number;
}

const MB = 1024 * 1024;

/** doctor's samples as rows. Throws when the data holds none. */
export function doctorSeries(data: DoctorData): DoctorRow[] {
  const stats = data?.processStat;
  if (!Array.isArray(stats) || stats.length === 0)
    throw new Error("the clinic doctor data holds no processStat samples");
  const t0 = stats[0].timestamp;
  return stats.map((s) => ({
    t: (s.timestamp - t0) / 1000,
    delayMs: s.delay,
    cpuPercent: s.cpu * 100,
    heapUsedMB: s.memory.heapUsed / MB,
    heapTotalMB: s.memory.heapTotal / MB,
    rssMB: s.memory.rss / MB,
    handles: s.handles,
  }));
}

/** Seconds (since the first sample) at which V8 reported a garbage collection, from doctor's trace events. */
export function doctorGcTimes(data: DoctorData): number[] {
  const t0 = data.processStat[0]?.timestamp ?? 0;
  return (data.traceEvent ?? []).flatMap((e) => {
    const ev = e as { name?: unknown; args?: { startTimestamp?: unknown } };
    const at = ev.args?.startTimestamp;
    return typeof ev.name === "string" && ev.name.startsWith("V8.GC") && typeof at === "number"
      ? [(at - t0) / 1000]
      : [];
  });
}

/** How densely doctor sampled while the load ran: its timer runs on the app's own event loop. */
export interface DoctorSampling {
  /** Every sample doctor took. */
  samples: number;
  /** The samples taken under load: more handles open than the fewest seen (the load's sockets). */
  underLoad: DoctorRow[];
  /** Seconds from the first to the last sample under load (0 with fewer than two). */
  loadSpanSeconds: number;
  /** The interval doctor asked for, in ms (clinic's --sample-interval). */
  intervalMs: number;
  /** Samples that interval would have given over loadSpanSeconds. */
  expectedUnderLoad: number;
  /** Median gap between consecutive samples under load, in ms; NaN with fewer than two. */
  medianGapMs: number;
  /** The fewest handles seen (the idle app) and the most (under load). */
  idleHandles: number;
  peakHandles: number;
}

/**
 * doctor's sampling under load: its timer fires late while the event loop is blocked, and samples are
 * missed. `intervalMs` default 10 (clinic's default --sample-interval, which clinicDoctor keeps). Throws
 * when the data has no samples.
 */
export function doctorSampling(data: DoctorData, intervalMs = 10): DoctorSampling {
  const rows = doctorSeries(data);
  const idleHandles = Math.min(...rows.map((r) => r.handles));
  const peakHandles = Math.max(...rows.map((r) => r.handles));
  const underLoad = rows.filter((r) => r.handles > idleHandles);
  const loadSpanSeconds = underLoad.length > 1 ? underLoad[underLoad.length - 1].t - underLoad[0].t : 0;
  const gaps = underLoad.slice(1).map((r, i) => (r.t - underLoad[i].t) * 1000);
  return {
    samples: rows.length,
    underLoad,
    loadSpanSeconds,
    intervalMs,
    expectedUnderLoad: Math.floor((loadSpanSeconds * 1000) / intervalMs) + (underLoad.length ? 1 : 0),
    medianGapMs: wb.spread(gaps).median,
    idleHandles,
    peakHandles,
  };
}

// doctor's samples drawn as its report draws them: four wb.lines panels given one time axis (one x
// extent, the same margins), one above the other with wb.stack.
const PANEL = { height: 150, marginLeft: 60, marginRight: 110, xLabel: "seconds since doctor's first sample" };

/** One panel: the series of `keys` from 0 to `tMax` s, each labelled at its end; `marksX`: ticks along the bottom. */
function doctorPanel(
  rows: DoctorRow[],
  keys: { key: keyof DoctorRow; label: string }[],
  tMax: number,
  meta: { title: string; subtitle?: string; yLabel: string; marksX?: number[] },
): wb.Chart {
  const points = rows.flatMap((r) => keys.map((k) => ({ x: r.t, y: r[k.key], series: k.label })));
  // The stack's text face is one table of the samples (doctorChart), not each panel's points.
  const text = meta.subtitle ? `${meta.title}\n${meta.subtitle}` : meta.title;
  return { ...wb.lines(points, { ...PANEL, ...meta, xDomain: [0, tMax] }), text };
}

/**
 * doctor's samples as one stacked chart, its report's four panels: event-loop delay, CPU, heap (used
 * and total, V8's garbage collections as ticks along the bottom: those while doctor sampled, the
 * others counted in the panel's subtitle) and active handles. The subtitle
 * names doctor's verdict (`meta.subtitle` replaces it); the text face is a table of the samples (the
 * first of each twentieth of the time axis, and the last). Throws when the data has no samples.
 */
export function doctorChart(r: Pick<DoctorResult, "data">, meta: wb.ChartMeta): wb.Chart {
  const rows = doctorSeries(r.data);
  const n = rows.length;
  const tMax = rows[n - 1].t;
  const axisEnd = Math.max(0.001, tMax);
  const gc = doctorGcTimes(r.data);
  const drawn = gc.filter((t) => t >= 0 && t <= axisEnd); // wb.lines leaves out ticks off the time axis
  const offAxis = gc.length - drawn.length;
  const panels = [
    doctorPanel(rows, [{ key: "delayMs", label: "loop delay" }], axisEnd, {
      title: "Event-loop delay (ms): how late doctor's own timer fired",
      yLabel: "ms",
    }),
    doctorPanel(rows, [{ key: "cpuPercent", label: "CPU" }], axisEnd, { title: "CPU (% of one core)", yLabel: "%" }),
    doctorPanel(
      rows,
      [
        { key: "heapTotalMB", label: "heap total" },
        { key: "heapUsedMB", label: "heap used" },
      ],
      axisEnd,
      {
        title: `Heap (MB); ticks along the bottom: ${drawn.length} garbage collections`,
        ...(offAxis ? { subtitle: `${offAxis} more outside doctor's samples are not drawn` } : {}),
        yLabel: "MB",
        marksX: drawn,
      },
    ),
    doctorPanel(rows, [{ key: "handles", label: "handles" }], axisEnd, {
      title: "Active handles (sockets, timers, servers)",
      yLabel: "handles",
    }),
  ];
  // The text face keeps the first sample of each twentieth of the time axis (and the last), so that a
  // burst of samples while the app idles does not crowd out the sparse ones under load.
  const buckets = new Set<number>();
  const shown = rows.filter((row, i) => {
    const b = Math.floor((row.t / Math.max(1e-9, tMax)) * 20);
    if (buckets.has(b) && i !== n - 1) return false;
    buckets.add(b);
    return true;
  });
  const table = wb.markdownTable(
    shown.map((row) => ({
      "t s": row.t,
      "delay ms": row.delayMs,
      "cpu %": row.cpuPercent,
      "heap used MB": row.heapUsedMB,
      "heap total MB": row.heapTotalMB,
      handles: row.handles,
    })),
  );
  return wb.stack(panels, {
    title: meta.title,
    subtitle: meta.subtitle ?? `clinic doctor's verdict: "${r.data.analysis?.issueCategory ?? "n/a"}"`,
    text: `${meta.text ?? meta.title}\n${table}`,
  });
}

/**
 * clinic doctor's verdict and how densely it sampled under load: its timer is a callback on the app's
 * own event loop, so a blocked loop starves it of samples, which is itself the finding.
 */
export function doctorText(d: Pick<DoctorResult, "data" | "sampling">): string {
  const issues = Object.entries(d.data.analysis.issues ?? {})
    .filter(([, v]) => v === "performance")
    .map(([k]) => k);
  const s = d.sampling;
  const verdict =
    `Doctor's verdict: **${d.data.analysis.issueCategory}**; ` +
    `flagged as a performance issue: **${issues.join(", ") || "nothing"}**.`;
  if (s.underLoad.length < 2) return `${verdict} It took ${s.samples} samples, fewer than two of them under load.`;
  return (
    `${verdict} It asks for a sample every ${s.intervalMs} ms and took **${s.underLoad.length} under load** ` +
    `over ${wb.fmt(s.loadSpanSeconds)} s, where its interval would have given about ${wb.fmt(s.expectedUnderLoad)}: ` +
    `one every **${wb.fmt(s.medianGapMs)} ms** (median gap). Its timer waits on the same blocked loop, so it ` +
    `samples only between long ticks. Active handles: ${s.idleHandles} idle, ${s.peakHandles} at the peak ` +
    `(${s.peakHandles - s.idleHandles} for the load's connections).`
  );
}
