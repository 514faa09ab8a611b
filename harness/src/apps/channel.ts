import { EventEmitter } from "node:events";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { WorkbookError } from "../core/errors";
import { repoRoot } from "../core/paths";
import { within } from "../core/time";

/**
 * The harness's end of the probe (harness/preload/probe.cjs): one Unix socket per harness process,
 * in a private temporary folder, and one channel per app started, by id. Through it an app reports
 * the addresses it listens on and, when asked, samples of its memory, event loop and GC; and it
 * answers requests (a heap snapshot, a heap profile). The app's stdout and stderr stay its own.
 */
export const PROBE_FILE: string = path.join(repoRoot, "harness", "preload", "probe.cjs");

/** One address a server of the app listened on. */
export interface ListenReport {
  address: string;
  port: number | null;
  family: string;
}

/** One interval of the probe's sampling (WORKBOOK_PROBE_INTERVAL_MS), as the app measured it. */
export interface ProbeSample {
  /** Milliseconds since the epoch, at the end of the interval (for display: the wall clock can be set meanwhile). */
  t: number;
  /** The app's monotonic clock (performance.now()) at the end of the interval, ms: what stretches are cut by. */
  mono: number;
  intervalMs: number;
  /** process.memoryUsage() at the end of the interval, in bytes. */
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** Event-loop utilisation over the interval, 0..1. */
  elu: number;
  /** CPU time the process used in the interval, ms (all threads). */
  cpuMs: number;
  /**
   * CPU time its main thread used in the interval, ms (process.threadCpuUsage, Node 26): cpuMs less
   * this went to libuv's pool, worker threads and V8's helper threads. null where Node lacks it.
   */
  mainCpuMs: number | null;
  /** Event-loop delay over the interval (monitorEventLoopDelay, its 10 ms resolution taken off), ms. */
  delayP50Ms: number;
  delayP99Ms: number;
  delayMaxMs: number;
  /** Garbage collections in the interval, their total pause, the longest one, and the pause by kind (minor, major...). */
  gcCount: number;
  gcMs: number;
  gcMaxMs: number;
  gcByKind: Record<string, number>;
}

export class AppChannel extends EventEmitter {
  readonly listens: ListenReport[] = [];
  readonly samples: ProbeSample[] = [];
  /** The pid of the process the probe runs in (the app, even under a wrapper such as clinic). */
  pid: number | null = null;
  socket: net.Socket | null = null;
  private nextReq = 0;
  private readonly waiting = new Map<number, (reply: { ok: boolean; value?: unknown; error?: string }) => void>();

  constructor(readonly id: string) {
    super();
  }

  receive(msg: Record<string, unknown>): void {
    if (msg.type === "hello") this.pid = Number(msg.pid);
    else if (msg.type === "listening") {
      const report = {
        address: String(msg.address),
        port: msg.port === null ? null : Number(msg.port),
        family: String(msg.family),
      };
      this.listens.push(report);
      this.emit("listening", report);
    } else if (msg.type === "sample") this.samples.push(msg as unknown as ProbeSample);
    else if (msg.type === "reply") {
      const settle = this.waiting.get(Number(msg.req));
      this.waiting.delete(Number(msg.req));
      settle?.(msg as { ok: boolean; value?: unknown; error?: string });
    }
  }

  /** Ask the probe to do something (`heap-snapshot`, `heap-sampling-start`, `heap-sampling-stop`). */
  async request<T>(cmd: string, args: Record<string, unknown> = {}, timeoutMs = 120_000): Promise<T> {
    const socket = this.socket;
    if (!socket)
      throw new WorkbookError(
        "WB_NO_REPORT",
        `the app's probe is not connected: was it started by the harness, on Node?`,
      );
    if (socket.destroyed || !socket.writable)
      throw new WorkbookError("WB_NO_REPORT", `the app's probe is gone (the app has exited): cannot ${cmd}`);
    const req = ++this.nextReq;
    const reply = new Promise<{ ok: boolean; value?: unknown; error?: string }>((resolve) =>
      this.waiting.set(req, resolve),
    );
    socket.write(`${JSON.stringify({ req, cmd, ...args })}\n`);
    const r = await within(reply, timeoutMs, null);
    if (r === null)
      throw new WorkbookError("WB_TIMEOUT", `the app did not answer the probe's ${cmd} within ${timeoutMs} ms`);
    if (!r.ok) throw new WorkbookError("WB_NO_REPORT", `the app's probe failed ${cmd}: ${r.error}`);
    return r.value as T;
  }

  /** The app's monotonic clock now, ms: one end of a stretch of samples (see `samplesIn`). */
  async now(): Promise<number> {
    return (await this.request<{ mono: number }>("now", {}, 60_000)).mono;
  }

  /**
   * The app's monotonic clock minus this process's performance.now(), ms: add it to a time taken
   * here to cut the app's samples at it. From one round trip, taken at its middle: within half of
   * it (about a millisecond while the app is idle). Both are CLOCK_MONOTONIC: they never drift apart.
   */
  async offset(): Promise<number> {
    const before = performance.now();
    const mono = await this.now();
    return mono - (before + performance.now()) / 2;
  }

  /**
   * The samples of a stretch of the app's monotonic clock (two `now()` readings, or times taken here
   * plus `offset()`): those whose interval's middle falls in it. Not cut by the wall clock, which a
   * time sync may step while a load runs (then a stretch cut by `Date.now()` can lose its samples).
   */
  samplesIn(from: number, to: number): ProbeSample[] {
    const mid = (s: ProbeSample) => s.mono - s.intervalMs / 2;
    return this.samples.filter((s) => mid(s) >= from && mid(s) <= to);
  }

  close(): void {
    for (const [req, settle] of this.waiting) settle({ ok: false, error: `the app exited (request ${req})` });
    this.waiting.clear();
    this.socket?.destroy();
    channels.delete(this.id);
  }
}

const channels = new Map<string, AppChannel>();
let server: { path: string; dir: string } | null = null;
let counter = 0;

function listen(): { path: string; dir: string } {
  if (server) return server;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "workbook-probe-"));
  const sockPath = path.join(dir, "probe.sock");
  const srv = net.createServer((socket) => {
    let channel: AppChannel | null = null;
    socket.on("error", () => {});
    // readline re-emits its input's errors (EPIPE when the app died mid-request): one unhandled
    // 'error' there would end the harness's process, so the socket's error is the whole story.
    const lines = readline.createInterface({ input: socket });
    lines.on("error", () => {});
    lines.on("line", (line) => {
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(line);
      } catch {
        return;
      }
      if (msg.type === "hello") {
        channel = channels.get(String(msg.id)) ?? null;
        if (channel) channel.socket = socket;
      }
      channel?.receive(msg);
    });
    socket.unref();
  });
  srv.listen(sockPath);
  srv.unref();
  process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  server = { path: sockPath, dir };
  return server;
}

/**
 * A channel for one app about to be started, and the environment that connects its probe to it.
 * `sampleMs` OPTIONAL: the probe's sampling interval (0 or absent: no sampling).
 */
export function openChannel(entry: string, sampleMs = 0): { channel: AppChannel; env: Record<string, string> } {
  const { path: sock } = listen();
  const id = `${process.pid}-${++counter}`;
  const channel = new AppChannel(id);
  channels.set(id, channel);
  const env: Record<string, string> = { WORKBOOK_PROBE_SOCKET: sock, WORKBOOK_APP_ID: id, WORKBOOK_PROBE_ENTRY: entry };
  if (sampleMs > 0) env.WORKBOOK_PROBE_INTERVAL_MS = String(sampleMs);
  return { channel, env };
}

/** The app's probe channel, or a WorkbookError saying why `what` needs it (an app on Bun has no probe). */
export function probeOf(app: { name: string; channel: AppChannel | null }, what: string): AppChannel {
  if (app.channel) return app.channel;
  throw new WorkbookError("WB_BAD_OPTION", `app "${app.name}" has no probe (not a Node app?): ${what} needs one`, {
    hint: "the probe is preloaded into apps that run on Node; run this app on Node",
  });
}
