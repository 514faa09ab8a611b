import fs from "node:fs";
import path from "node:path";
import { type AppRef, resolveApp } from "../apps/registry";
import { type StartOptions, startApp } from "../apps/start";
import { atCellEnd } from "../charts/display";
import { doctorCharts } from "../charts/doctor";
import type { Chart, ChartMeta } from "../charts/plot";
import { WorkbookError } from "../core/errors";
import { loopbackUrl } from "../core/loopback";
import { repoRoot } from "../core/paths";
import { pinning } from "../core/pinning";
import { settings } from "../core/settings";
import { within } from "../core/time";
import { profileDir } from "./cpu-profile";
import { type DoctorData, type DoctorSampling, doctorGcTimes, doctorSampling, doctorSeries } from "./doctor";

/**
 * clinic doctor, with the same face as cpuProfile: options in, a result out. (clinic flame is left
 * out: no notebook runs it; the workbook's flame graphs come from cpuProfile.)
 * clinic 13 is unmaintained; what it needs on current Node (checked on Node 26):
 *   - NO_INSIGHT=1, or without a terminal it waits on an analytics prompt and exits silently;
 *   - `--on-port <load command>`: clinic runs it once the app listens, then stops the app
 *     itself and writes the report, the path that works reliably (flame stopped by SIGINT to
 *     clinic alone hangs);
 *   - `node` on PATH must be the pinned Node, for the app and for the load command.
 * Any server file works: clinic finds its port itself, and the harness only waits for clinic to
 * finish and collects what it wrote. bubbleprof is left out: with --on-port the app never exits
 * on Node 20-26 and no report comes.
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

export interface ClinicResult {
  tool: "doctor";
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
  /** How densely doctor sampled under load: its timer waits on the app's loop, so a blocked loop starves it. */
  sampling: DoctorSampling;
}

const CLINIC = path.join(repoRoot, "node_modules", "clinic", "bin.js");
const AUTOCANNON = path.join(repoRoot, "node_modules", "autocannon", "autocannon.js");

async function runClinic(tool: "doctor", ref: AppRef, opts: ClinicOptions): Promise<ClinicResult> {
  const app = resolveApp(ref);
  const { dir: dest, done } = profileDir("clinic", `${app.name}-${tool}`);
  try {
    const seconds = opts.seconds ?? settings().profileSeconds;
    const loadJson = path.join(dest, "load.json");
    // A path on loopback, inert inside the shell's double quotes.
    const route = ((u) => u.pathname + u.search)(
      loopbackUrl("http://127.0.0.1", opts.path ?? app.probe ?? "/"),
    ).replace(/[$`\\]/g, encodeURIComponent);
    const node = process.execPath;
    const p = pinning();
    const onCore = opts.start?.pin !== false && p.enabled ? `taskset -c ${p.generator} ` : "";
    // $PORT is set by clinic for the --on-port command; the target is always loopback.
    const load = `${onCore}"${node}" "${AUTOCANNON}" -c ${opts.connections ?? 100} -d ${seconds} -j "http://127.0.0.1:$PORT${route}" > "${loadJson}"`;
    const started = Date.now();
    const handle = await startApp(ref, {
      ...opts.start,
      listen: false, // clinic waits for the port, loads it and ends the app: the harness waits for clinic
      env: {
        ...opts.start?.env,
        NO_INSIGHT: "1",
        PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ""}`,
      },
      wrap: [
        node,
        CLINIC,
        tool,
        "--open=false",
        "--name",
        app.name.replace(/\W+/g, "-"),
        "--dest",
        dest,
        "--on-port",
        load,
        "--",
      ],
    });
    // What ran, under the cell (as every load prints its command): clinic, the app, and the load it ran.
    atCellEnd(`The command that ran (from the workbook's folder):\n\n\`\`\`sh\n${handle.command}\n\`\`\``);
    const timeoutMs = opts.timeoutMs ?? 180_000;
    const output = () => ({ app: app.name, stdout: handle.stdout(), stderr: handle.stderr() });
    if ((await within(handle.exited, timeoutMs, null)) === null) {
      await handle.stop();
      throw new WorkbookError(
        "WB_TIMEOUT",
        `clinic ${tool} on "${app.name}" did not finish within ${timeoutMs} ms; stopped`,
        output(),
      );
    }
    const html = fs.readdirSync(dest).find((f) => f.endsWith(`.clinic-${tool}.html`));
    const dataDir = fs.readdirSync(dest).find((f) => f.endsWith(`.clinic-${tool}`));
    if (!html || !dataDir) {
      throw new WorkbookError(
        "WB_NO_REPORT",
        `clinic ${tool} on "${app.name}" wrote no report (exit ${JSON.stringify(handle.exitInfo())})`,
        {
          ...output(),
          hint: "clinic needs the app to listen within its own start time and to exit when clinic stops it; run the app alone first",
        },
      );
    }
    let summary: ClinicResult["load"] = null;
    try {
      const r = JSON.parse(fs.readFileSync(loadJson, "utf8"));
      summary = { reqPerSec: r.requests.average, errors: r.errors, non2xx: r.non2xx };
    } catch {
      /* the load's own output is optional */
    }
    return {
      tool,
      app: app.name,
      html: path.join(dest, html),
      dataDir: path.join(dest, dataDir),
      load: summary,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    done();
  }
}

/** Pull `{traceEvent, processStat, analysis}` out of a doctor HTML report. */
export function readDoctorData(htmlPath: string): DoctorData {
  const html = fs.readFileSync(htmlPath, "utf8");
  const open = /<script type="application\/json" id="clinic-data">/.exec(html);
  if (!open)
    throw new WorkbookError(
      "WB_NO_REPORT",
      `no clinic-data <script> in ${htmlPath}: not a doctor report, or truncated`,
    );
  const start = open.index + open[0].length;
  const end = html.indexOf("</script>", start);
  if (end < 0)
    throw new WorkbookError("WB_NO_REPORT", `the clinic-data <script> in ${htmlPath} is not closed: truncated report?`);
  return JSON.parse(html.slice(start, end)) as DoctorData;
}

/**
 * clinic doctor on an app under load: the report, its sampled data and its verdict. clinic 13 is no
 * longer maintained; on Node 26 it works when run as here: `NO_INSIGHT=1` (without a terminal it
 * otherwise waits on an analytics prompt and exits silently), the pinned Node first on `PATH`, and
 * the load (autocannon, pinned to the generator's CPU) given to `--on-port`, after which clinic stops
 * the app and writes its report (stopping `clinic flame` with SIGINT hangs). bubbleprof is left out:
 * with `--on-port` the app never exits on Node 20-26. Any server file works: clinic finds the port.
 * Options: `seconds` (`settings().profileSeconds`), `connections` (100), `path` (the registry's probe
 * path, else `/`), `start`, `timeoutMs` (180000, analysis included). Results go under
 * `results/clinic/<app>-<tool>-<time>/`. Throws `WB_TIMEOUT` past `timeoutMs` and `WB_NO_REPORT` when
 * clinic wrote no report, each with the end of clinic's output.
 *
 * @example
 * const doctor = await lesson.clinicDoctor("etag-slow", { connections: 100 });
 * wb.show(lesson.doctorChart(doctor, { title: "clinic doctor on the slow server, drawn from its own samples" }));
 * wb.markdown(here.doctorText(doctor)); // notebook 01's sentence: its verdict and its sampling
 */
export async function clinicDoctor(ref: AppRef, opts: ClinicOptions = {}): Promise<DoctorResult> {
  const r = await runClinic("doctor", ref, opts);
  const data = readDoctorData(r.html);
  return { ...r, tool: "doctor", data, sampling: doctorSampling(data) };
}

/** Doctor's samples drawn as four panels (loop delay, CPU, heap with GCs, handles); the subtitle names doctor's verdict; the text face is a table of the samples (the first of each twentieth of the time axis). Throws a plain Error when the data has no samples. */
export function doctorChart(r: DoctorResult, meta: ChartMeta): Chart {
  return doctorCharts(doctorSeries(r.data), doctorGcTimes(r.data), {
    ...meta,
    subtitle: meta.subtitle ?? `clinic doctor's verdict: "${r.data.analysis?.issueCategory ?? "n/a"}"`,
  });
}
