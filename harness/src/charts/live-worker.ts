import { parentPort } from "node:worker_threads";
import { liveSubtitle, perSecondChart, type SecondSample } from "./per-second";

/**
 * The live chart's renderer, in a worker thread (started by live.ts): Plot in jsdom takes tens
 * of milliseconds per frame, which on the load generator's own thread would stall autocannon and
 * add that stall to the latency it records.
 */
export interface FrameRequest {
  id: number;
  title: string;
  samples: SecondSample[];
  status: string;
}

export type FrameReply = { id: number; svg: string; text: string; ms: number } | { id: number; error: string };

// Load Plot and jsdom and draw one frame now, then say so: the first frame of a test costs no more than the others.
perSecondChart(
  [
    {
      run: "run 1",
      second: 1,
      reqPerSec: 1,
      latencyP50Ms: 1,
      latencyP99Ms: 1,
      serverCpuPercent: null,
      generatorCpuPercent: 1,
    },
  ],
  { title: "warm-up" },
);
parentPort?.postMessage({ ready: true });

parentPort?.on("message", (req: FrameRequest) => {
  const t0 = performance.now();
  try {
    const chart = perSecondChart(req.samples, { title: req.title, subtitle: liveSubtitle(req.samples, req.status) });
    parentPort!.postMessage({
      id: req.id,
      svg: chart.svg,
      text: chart.text,
      ms: performance.now() - t0,
    } satisfies FrameReply);
  } catch (e) {
    parentPort!.postMessage({ id: req.id, error: (e as Error).message } satisfies FrameReply);
  }
});
