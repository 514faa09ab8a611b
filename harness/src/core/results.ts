import fs from "node:fs";
import path from "node:path";
import { badOption } from "./errors";
import { type Fingerprint, fingerprint } from "./fingerprint";
import { ensureDir, fromWorkbook, resultsDir } from "./paths";

export interface SavedResults<T> {
  notebook: string;
  savedAt: string;
  fingerprint: Fingerprint;
  data: T;
}

/** results/<notebook>.json; the name must be a plain file name, so nothing lands outside resultsDir. */
function fileName(fn: string, notebook: string): string {
  if (typeof notebook !== "string" || !/^[\w.-]+$/.test(notebook) || /^\.+$/.test(notebook)) {
    throw badOption(fn, `notebook name must be a plain file name, got ${JSON.stringify(notebook)}`);
  }
  return `${notebook.replace(/\.ipynb$/, "")}.json`;
}

/**
 * Save a notebook's measurements to results/<notebook>.json with the machine fingerprint.
 * Returns the path as a learner types it from the workbook's folder (`results/<notebook>.json`; absolute
 * only when WORKBOOK_RESULTS_DIR lies outside the workbook). The file (`{ notebook, savedAt, fingerprint, data }`) is rewritten whole on each
 * call, through a temporary file and a rename (a reader never sees half a file): pass everything
 * measured. `notebook` must be a plain file name (letters, digits, `_`, `.`, `-`; not `.` or `..`); a
 * trailing `.ipynb` is dropped; anything else throws a plain `Error`.
 *
 * @example
 * wb.saveResults("00-getting-started", { first, sweep });
 * const saved = internal.loadResults<{ first: wb.LoadResult }>("00-getting-started"); // null if none
 */
export function saveResults<T>(notebook: string, data: T): string {
  const file = path.join(ensureDir(resultsDir), fileName("saveResults", notebook));
  const saved: SavedResults<T> = { notebook, savedAt: new Date().toISOString(), fingerprint: fingerprint(), data };
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(saved, null, 2));
  fs.renameSync(tmp, file);
  return fromWorkbook(file);
}

/** A notebook's saved results (see `saveResults`, which also says what a name may be), or null when it has saved none. */
export function loadResults<T>(notebook: string): SavedResults<T> | null {
  const file = path.join(resultsDir, fileName("loadResults", notebook));
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as SavedResults<T>) : null;
}
