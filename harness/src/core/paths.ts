import fs from "node:fs";
import path from "node:path";

/** The workbook's root folder (the one holding apps/, notebooks/ and package.json). */
export const repoRoot: string = path.resolve(__dirname, "..", "..", "..");
/** `<repoRoot>/apps`. */
export const appsDir: string = path.join(repoRoot, "apps");
/** Where notebooks save their measurements and reports (ignored by git): `WORKBOOK_RESULTS_DIR` if it is set when the harness is loaded, else `<repoRoot>/results`. */
export const resultsDir: string = process.env.WORKBOOK_RESULTS_DIR || path.join(repoRoot, "results");

export function ensureDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** The workbook's version, from the root package.json. */
export function workbookVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
  return String(pkg.version);
}
