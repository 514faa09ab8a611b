/**
 * A process spawned with `detached: true` leads its own process group; a signal sent to the
 * negative group id reaches the leader and everything it started (a wrapper's app, a worker).
 */

/** Send `signal` to every process of the group (0: only test that it exists). False when the group is gone. */
export function signalGroup(groupId: number, signal: NodeJS.Signals | 0 = "SIGKILL"): boolean {
  if (!Number.isInteger(groupId) || groupId <= 1) return false; // -1 and -0 would signal far more than one group
  try {
    process.kill(-groupId, signal);
    return true;
  } catch {
    return false; // already gone
  }
}
