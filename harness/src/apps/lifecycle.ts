/**
 * Nothing the harness starts may outlive the notebook. Every child process group is
 * tracked here and stopped:
 *   - by its own stop();
 *   - when the tslab cell that started it fails (a patched tslab execute hook);
 *   - when the kernel exits (process 'exit', SIGTERM, SIGHUP): SIGKILL to each group;
 *   - and, if the kernel is killed outright, by the app itself: it is spawned with a
 *     stdin pipe and WORKBOOK_WATCH_STDIN=1, and exits when that pipe closes.
 * The same hook shows, as each cell ends, what the cell's loads and profiles queued to be printed
 * under it (charts/display.ts: atCellEnd).
 */

import { flushCellEnd } from "../charts/display";
import { tslabJupyter } from "../core/kernel";
import { signalGroup } from "./process-group";

export interface Stoppable {
  /** The process group id (the pid of the spawned leader). */
  readonly groupId: number;
  /** The tslab cell (execution serial) that started it, or 0 outside a kernel. */
  readonly cell: number;
  stop(): Promise<unknown>;
}

const live = new Set<Stoppable>();
let currentCell = 0;
let hooksInstalled = false;

export function track(item: Stoppable): void {
  live.add(item);
}

export function untrack(item: Stoppable): void {
  live.delete(item);
}

export function cellSerial(): number {
  return currentCell;
}

/** Stop everything the harness started (apps, profilers). Safe to call at any time. */
export async function stopAll(): Promise<void> {
  await Promise.allSettled([...live].map((item) => item.stop()));
}

/** Process groups still running: what stopAll() would stop. */
export function running(): number[] {
  return [...live].map((item) => item.groupId);
}

function killGroupsNow(): void {
  for (const item of live) signalGroup(item.groupId, "SIGKILL");
  live.clear();
}

/** Installed when the harness is first imported, so every later cell is watched. */
export function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on("exit", killGroupsNow);
  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      killGroupsNow();
      process.kill(process.pid, signal); // our listener is gone: the default action follows
    });
  }
  patchTslab();
}

/**
 * tslab runs each cell through JupyterHandlerImpl.handleExecuteImpl, which throws when the
 * cell failed. Wrapping it lets us stop what a failing cell started, the way a `finally`
 * would. Outside a tslab kernel (node:test, scripts) there is nothing to patch.
 */
function patchTslab(): void {
  const proto = tslabJupyter()?.JupyterHandlerImpl?.prototype;
  if (!proto || typeof proto.handleExecuteImpl !== "function" || proto.__workbookPatched) return;
  const original = proto.handleExecuteImpl;
  proto.handleExecuteImpl = async function (this: unknown, ...args: unknown[]) {
    const serial = ++currentCell;
    try {
      const result = await original.apply(this, args);
      flushCellEnd();
      return result;
    } catch (err) {
      flushCellEnd();
      const started = [...live].filter((item) => item.cell === serial);
      if (started.length) {
        process.stderr.write(`[workbook] the cell failed: stopping ${started.length} process(es) it started\n`);
        await Promise.allSettled(started.map((item) => item.stop()));
      }
      throw err;
    }
  };
  proto.__workbookPatched = true;
  // The cell that imports the harness is already running and cannot be wrapped any more:
  // what it starts is stopped at kernel exit (or by withApp), not by this hook.
  currentCell++;
}

installHooks();
