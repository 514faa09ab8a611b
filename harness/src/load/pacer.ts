import path from "node:path";
import { track, untrack } from "../apps/lifecycle";
import { type GroupProcess, spawnGroup } from "../apps/spawn";
import { WorkbookError } from "../core/errors";
import { repoRoot } from "../core/paths";
import { within } from "../core/time";
import { generatorWrap } from "./generator";
import type { PacedOptions, PacedResult } from "./paced";

/**
 * The paced loads' own process. Paced loads count every latency from when a request was due, so any
 * pause of the process that sends them is in every figure they report. Run inside a notebook's kernel,
 * they shared its heap (the kernel's TypeScript compiler, its charts, every result kept) and its garbage
 * collections: pauses of tens of ms that landed on whichever load was running, and sent requests that
 * late (notebook 02's worker pool measured 2-6x worse than libuv's in runs where that happened). In a
 * process of its own, with a heap of a few MB, on the generator's core, the schedule holds.
 */
export class Pacer {
  private next = 1;
  private readonly waiting = new Map<number, (msg: { results?: PacedResult[]; error?: string }) => void>();
  private readonly proc: GroupProcess;
  private readonly stoppable: { groupId: number; cell: number; stop: () => Promise<void> };

  private constructor(proc: GroupProcess) {
    this.proc = proc;
    this.stoppable = { groupId: proc.groupId, cell: 0, stop: () => this.stop() };
    proc.lines.on("line", (line) => {
      let msg: { id: number; results?: PacedResult[]; error?: string };
      try {
        msg = JSON.parse(line);
      } catch {
        return;
      }
      this.waiting.get(msg.id)?.(msg);
      this.waiting.delete(msg.id);
    });
    void proc.exited.then(() => {
      for (const settle of this.waiting.values())
        settle({ error: `the paced generator exited: ${proc.stderr.text()}` });
      this.waiting.clear();
    });
  }

  /** Start the generator's process, on the generator's core when `pinned` (see pinning()). */
  static async start(pinned: boolean): Promise<Pacer> {
    const main = path.join(__dirname, "pacer-main.js");
    const proc = await spawnGroup([...generatorWrap(pinned), process.execPath, main], {
      cwd: repoRoot,
      env: process.env,
      name: "paced load generator",
    });
    const pacer = new Pacer(proc);
    const ready = new Promise<void>((resolve) => pacer.waiting.set(0, () => resolve()));
    if (
      !(await within(
        ready.then(() => true),
        10_000,
        false,
      ))
    ) {
      await pacer.stop();
      throw new WorkbookError("WB_NO_REPORT", `the paced load generator did not start: ${proc.stderr.text()}`);
    }
    track(pacer.stoppable);
    return pacer;
  }

  /** Run these loads side by side in the generator's process; resolves with their results, in order. */
  run(loads: PacedOptions[]): Promise<PacedResult[]> {
    const id = this.next++;
    const job = loads.map((l) => ({ ...l, target: typeof l.target === "string" ? l.target : l.target.url }));
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (msg) => (msg.results ? resolve(msg.results) : reject(new Error(msg.error))));
      this.proc.child.stdin!.write(`${JSON.stringify({ id, loads: job })}\n`);
    });
  }

  /** End the process (its stdin closes; it exits at once), and wait for it. */
  async stop(): Promise<void> {
    untrack(this.stoppable);
    this.proc.child.stdin?.end();
    await within(this.proc.exited, 5000, null);
  }
}
