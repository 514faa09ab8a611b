import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { badOption, WorkbookError } from "../core/errors";
import { repoRoot } from "../core/paths";
import { shellLine } from "../core/shell";
import { runtimeByName } from "./runtimes";

/**
 * `bun build --compile`: an app bundled with the Bun runtime into one executable, the way the
 * Elysia-vs-Encore post compiled its app for production. The executable is about 100 MB, so it lives
 * in the workbook's build/compiled/ only for as long as the callback runs: the commands printed meanwhile
 * name it from the workbook's folder, and the build command they give writes it there again.
 */

export interface CompiledApp {
  /** The executable: start it with `startApp({ name, entry: binary, probe }, { standalone: true })`. */
  binary: string;
  /** The command that built it, as typed from the workbook's folder. */
  command: string;
  /** How long the build took. */
  seconds: number;
  /** The executable's size. */
  megabytes: number;
}

/**
 * Compile `entry` (a path) with Bun into build/compiled/, run `fn` with the executable, then remove it
 * (and the folder, once empty), whatever `fn` did. Throws, saying why and what to do, when Bun is not installed
 * or the build fails (with the end of Bun's output).
 */
export async function withBunCompiled<T>(entry: string, fn: (app: CompiledApp) => Promise<T>): Promise<T> {
  const bun = runtimeByName("bun");
  if (!bun.present) throw badOption("withBunCompiled", `Bun is needed to compile an app: ${bun.missing}`);
  const source = path.resolve(entry);
  if (!fs.existsSync(source)) throw badOption("withBunCompiled", `no such file: ${source}`);
  const dir = path.join(repoRoot, "build", "compiled");
  fs.mkdirSync(dir, { recursive: true });
  const binary = path.join(dir, path.basename(source).replace(/\.[cm]?[jt]sx?$/, ""));
  try {
    const args = ["build", "--compile", source, "--outfile", binary];
    const started = process.hrtime.bigint();
    const failed = await new Promise<string | null>((resolve) =>
      // In its output folder: bun writes a temporary .bun-build file where it runs.
      execFile(bun.binary, args, { cwd: dir, timeout: 120_000, maxBuffer: 1 << 20 }, (err, stdout, stderr) =>
        resolve(err ? `${err.message}\n${`${stdout}${stderr}`.slice(-800)}` : null),
      ),
    );
    if (failed !== null || !fs.existsSync(binary))
      throw new WorkbookError(
        "WB_APP_SPAWN",
        `bun build --compile ${source} failed: ${failed ?? "no executable written"}`,
      );
    const rel = (p: string) => path.relative(repoRoot, p);
    return await fn({
      binary,
      command: shellLine([rel(bun.binary), "build", "--compile", rel(source), "--outfile", rel(binary)]),
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
      megabytes: fs.statSync(binary).size / 1e6,
    });
  } finally {
    fs.rmSync(binary, { force: true });
    if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
  }
}
