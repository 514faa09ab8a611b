// Notebook 07's own helpers (the shared harness, `wb`, keeps what two notebooks use).
import fs from "node:fs";
import path from "node:path";
import * as wb from "@workbook/harness";
import * as lesson from "@workbook/harness/internal";

/**
 * An empty folder for one configuration's process counts, under results/07-every-core/, as a path from
 * the workbook's folder (the apps run there): the commands printed under a cell then name a folder that
 * is still there, and can be pasted as they are. Whatever an earlier run left in it is removed.
 */
export function statsDir(name: string): string {
  const dir = path.join(lesson.resultsDir, "07-every-core", name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return path.relative(wb.repoRoot, dir);
}

/** What an app's processes wrote to a statsDir() folder (a path from the workbook's folder). */
export function readStats(dir: string): ReturnType<typeof lesson.readProcessStats> {
  return lesson.readProcessStats(path.resolve(wb.repoRoot, dir));
}
