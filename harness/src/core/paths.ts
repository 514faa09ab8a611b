import fs from "node:fs";
import path from "node:path";

/** The workbook's root folder (the one holding apps/, notebooks/ and package.json). */
export const repoRoot: string = path.resolve(__dirname, "..", "..", "..");
/** `<repoRoot>/apps`. */
export const appsDir: string = path.join(repoRoot, "apps");
/**
 * Where notebooks save their measurements and reports (ignored by git): `WORKBOOK_RESULTS_DIR` if it is
 * set when the harness is loaded, else `<repoRoot>/results`. A relative WORKBOOK_RESULTS_DIR is taken
 * from the workbook's folder, as make's commands give it: a kernel runs in notebooks/ and an app's
 * probe in the workbook's folder, and both must write to the same place.
 */
export const resultsDir: string = path.resolve(repoRoot, process.env.WORKBOOK_RESULTS_DIR || "results");

/** A path as a learner types it from the workbook's folder: relative where an absolute one lies inside it, else as given. */
export function fromWorkbook(file: string): string {
  const rel = path.relative(repoRoot, file);
  return path.isAbsolute(file) && !rel.startsWith("..") ? rel : file;
}

export function ensureDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** The workbook's version, from the root package.json. */
export function workbookVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
  return String(pkg.version);
}
