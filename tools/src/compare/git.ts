import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { WorkbookError } from "@workbook/harness";

/**
 * `make compare APP=server.js BASE=main`: the file as it was at a commit, checked out into a temporary
 * `git worktree` (the learner's working tree, index and branches untouched), with the repository's
 * node_modules folders linked in so that the old code finds its dependencies (the ones installed now:
 * a BASE with other dependencies is compared with today's). `remove()` deletes the worktree and its
 * record in .git, synchronously, so that a signal handler can call it; it is safe to call twice.
 */
export interface BaseCheckout {
  /** The file at BASE: its path inside the temporary worktree. */
  file: string;
  /** The commit BASE names, and its first line. */
  commit: string;
  subject: string;
  /** The temporary worktree. */
  dir: string;
  /** The repository's top folder. */
  repo: string;
  remove(): void;
}

function git(cwd: string, args: string[]): string {
  return execFileSync("git", ["-C", cwd, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

function gitOk(cwd: string, args: string[]): boolean {
  try {
    git(cwd, args);
    return true;
  } catch {
    return false;
  }
}

const bad = (what: string, hint: string) => new WorkbookError("WB_BAD_OPTION", what, { hint });

/** Check out `file` as it was at `base` into a temporary worktree. Throws WB_BAD_OPTION naming the cause and the fix. */
export function checkoutBase(file: string, base: string): BaseCheckout {
  const abs = path.resolve(file);
  if (!fs.existsSync(abs))
    throw bad(`APP ${file} does not exist`, "give the path of your server file, e.g. APP=server.js");
  let repo: string;
  try {
    repo = git(path.dirname(abs), ["rev-parse", "--show-toplevel"]);
  } catch {
    throw bad(
      `${file} is not in a git repository`,
      "BASE needs git history: run `git init` and commit, or compare two files with A=... B=...",
    );
  }
  if (!base || base.startsWith("-"))
    throw bad(
      `BASE ${JSON.stringify(base)} is not a commit`,
      "name a branch, a tag or a commit: BASE=main, BASE=HEAD~1",
    );
  let commit: string;
  try {
    commit = git(repo, ["rev-parse", "--verify", "--quiet", `${base}^{commit}`]);
  } catch {
    throw bad(
      `BASE ${base} is not a commit of ${repo}`,
      "name a branch, a tag or a commit that `git log --oneline` or `git branch -a` lists (BASE=main, BASE=HEAD~1); in CI, fetch it first (actions/checkout with fetch-depth: 0)",
    );
  }
  const rel = path.relative(fs.realpathSync(repo), fs.realpathSync(abs));
  if (!gitOk(repo, ["cat-file", "-e", `${commit}:${rel.split(path.sep).join("/")}`]))
    throw bad(
      `${rel} did not exist at ${base} (${commit.slice(0, 12)})`,
      "compare with a BASE where the file exists, or use A=old.js B=new.js",
    );
  const subject = git(repo, ["log", "-1", "--format=%s", commit]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "workbook-compare-base-"));
  let removed = false;
  const links: string[] = [];
  const remove = () => {
    if (removed) return;
    removed = true;
    for (const l of links) fs.rmSync(l, { force: true }); // the links, never what they point to
    if (!gitOk(repo, ["worktree", "remove", "--force", dir])) {
      fs.rmSync(dir, { recursive: true, force: true });
      gitOk(repo, ["worktree", "prune"]);
    }
  };
  try {
    fs.rmdirSync(dir); // git worktree add makes the folder itself
    git(repo, ["worktree", "add", "--detach", "--quiet", dir, commit]);
    links.push(...linkNodeModules(repo, dir, path.dirname(rel)));
  } catch (err) {
    remove();
    throw bad(
      `could not check out ${base} into a temporary worktree: ${(err as Error).message.split("\n")[0]}`,
      "run `git worktree prune` and try again",
    );
  }
  return { file: path.join(dir, rel), commit, subject, dir, repo, remove };
}

/** Link every node_modules folder on the way from the repository's top to the file's folder into the worktree; returns the links. */
function linkNodeModules(repo: string, dir: string, relDir: string): string[] {
  const made: string[] = [];
  const parts = relDir === "" || relDir === "." ? [] : relDir.split(path.sep);
  for (let i = 0; i <= parts.length; i++) {
    const sub = path.join(...["."], ...parts.slice(0, i));
    const have = path.join(repo, sub, "node_modules");
    const want = path.join(dir, sub, "node_modules");
    if (fs.existsSync(have) && !fs.existsSync(want) && fs.existsSync(path.dirname(want))) {
      fs.symlinkSync(have, want, "dir");
      made.push(want);
    }
  }
  return made;
}
