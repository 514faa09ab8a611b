import path from "node:path";
import { Worker } from "node:worker_threads";
import { inKernel } from "../core/kernel";
import { newOutput, type Output } from "./display";
import type { FrameReply, FrameRequest } from "./live-worker";
import { liveSubtitle, perSecondChart, SecondSample } from "./per-second";
import { show } from "./plot";

export { SecondSample };

/** At most one frame of a live chart per this many milliseconds. */
export const LIVE_INTERVAL_MS = 2000;

let worker: Worker | null = null;
let started: Promise<boolean> = Promise.resolve(false);
let broken = false; // a renderer that failed once is not started again: the final frames still come
let nextId = 0;
const waiting = new Map<number, (reply: FrameReply) => void>();

/** The process's one renderer thread, started on first use; it keeps the process alive only while a frame is due. */
function renderer(): Worker | null {
  if (worker || broken) return worker;
  try {
    const w = new Worker(path.join(__dirname, "live-worker.js"));
    let isReady: (ok: boolean) => void = () => {};
    started = new Promise<boolean>((resolve) => {
      isReady = resolve;
    });
    w.on("message", (reply: FrameReply | { ready: true }) => {
      if ("ready" in reply) {
        isReady(true);
        if (waiting.size === 0) w.unref();
        return;
      }
      waiting.get(reply.id)?.(reply);
      waiting.delete(reply.id);
      if (waiting.size === 0) w.unref();
    });
    const gone = (why: string) => {
      if (worker === w) worker = null;
      isReady(false);
      for (const [id, settle] of waiting) settle({ id, error: why });
      waiting.clear();
    };
    w.on("error", (e) => {
      broken = true;
      gone(`the renderer thread failed: ${e.message}`);
    });
    w.on("exit", () => gone("the renderer thread exited"));
    worker = w;
  } catch {
    broken = true;
    return null;
  }
  return worker;
}

/**
 * Resolves once the renderer thread has loaded Plot and jsdom and drawn a first frame (true), or
 * failed (false), or after `timeoutMs` (false): about 1.3 s of CPU, once per process.
 */
export function rendererReady(timeoutMs = 20_000): Promise<boolean> {
  if (!renderer()) return Promise.resolve(false);
  return Promise.race([started, new Promise<boolean>((r) => setTimeout(() => r(false), timeoutMs).unref())]);
}

/** One frame of the per-second chart (SVG and text, no PNG), drawn in the renderer thread. */
export function renderFrame(
  title: string,
  samples: readonly SecondSample[],
  status: string,
): Promise<{ svg: string; text: string; ms: number }> {
  const w = renderer();
  if (!w) return Promise.reject(new Error("no renderer thread"));
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    waiting.set(id, (r) => ("error" in r ? reject(new Error(r.error)) : resolve(r)));
    w.ref();
    w.postMessage({ id, title, samples: [...samples], status } satisfies FrameRequest);
  });
}

/**
 * Per-second req/s and latency, redrawn in place while a load test runs. Frames are drawn in a
 * worker thread, at most one every LIVE_INTERVAL_MS and never two at once, so the load
 * generator's thread only sends samples and receives SVG; the final frame (with PNG) is drawn
 * here once the runs are over.
 */
export class LiveChart {
  private readonly output: Output | null;
  private lastDraw = 0;
  private busy = false;
  private done = false;

  /** `output` OPTIONAL: where to draw (tests). Default: a new notebook output, in a kernel only. */
  constructor(
    private readonly title: string,
    enabled: boolean,
    output?: Output,
  ) {
    this.output = enabled ? (output ?? (inKernel() ? newOutput() : null)) : null;
  }

  /** Wait for the renderer thread to start (the first time only), so that its start-up is not measured. */
  async ready(): Promise<void> {
    if (this.output) await rendererReady();
  }

  update(samples: readonly SecondSample[], status: string): void {
    if (!this.output || this.done || this.busy || samples.length === 0 || Date.now() - this.lastDraw < LIVE_INTERVAL_MS)
      return;
    this.lastDraw = Date.now();
    this.busy = true;
    const output = this.output;
    renderFrame(this.title, samples, status)
      .then(
        (f) => {
          if (!this.done) output.update({ "image/svg+xml": f.svg, "text/plain": f.text });
        },
        () => {
          /* a lost frame; the final one is drawn anyway */
        },
      )
      .finally(() => {
        this.busy = false;
      });
  }

  /** The final frame, with PNG so it survives export and untrusted notebooks; later frames are dropped. */
  finish(samples: readonly SecondSample[], status: string): void {
    this.done = true;
    if (!this.output || samples.length === 0) return;
    show(perSecondChart(samples, { title: this.title, subtitle: liveSubtitle(samples, status) }), this.output, {
      png: true,
    });
  }

  /** No more frames (the test failed): the last one drawn stays. */
  close(): void {
    this.done = true;
  }
}
