"""Exercises: written once in solutions/, generated into exercises/, graded for a class.

    python scripts/exercises.py generate [--out DIR]      solutions/<ex>/ -> DIR/<ex>/ (default exercises/)
    python scripts/exercises.py check                     exit 1 if exercises/ differs from a fresh generation
    python scripts/exercises.py reset EXERCISE            back up the learner's edited app/ files and notebook into
                                                          exercises/EXERCISE/backup-<timestamp>/, then restore the
                                                          starting ones as `generate` writes them (make reset-exercise)
    python scripts/exercises.py grade SUBMISSIONS [--out DIR] [--only EXERCISE] [--timeout SECONDS]
                                                          check every learner's exercises; grades.csv + grades.html,
                                                          rewritten after every row

Markers (one per line, at any indentation; see solutions/README.md):

    // BEGIN SOLUTION ... // END SOLUTION    removed from the exercise; its `// HINT: ...` lines are kept,
    // BEGIN STUB ... // END STUB            and replaced by this region, uncommented (it must follow END SOLUTION)
    <!-- BEGIN SOLUTION --> ... <!-- END SOLUTION -->   in Markdown (README.md, notebook text): removed

Each exercise whose check measures the learner's app against its own starting point (check.json's
baseline `start/...`) also gets `start/`: the generated app files again, untouched. One measured
against another app (01-etag's baseline is apps/etag-fixed) gets none: nothing would read it. exercises/README.md (the learners' entry page) is generated from
solutions/exercises-README.md, with the table of exercises made from each check.json.
"""
from __future__ import annotations

import argparse
import copy
import csv
import filecmp
import html
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).parent))
from nbtool import strip  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = ROOT / "solutions"
EXERCISES = ROOT / "exercises"
NODE = ROOT / "node_modules" / "node" / "bin" / "node"
RUNNER = ROOT / "scripts" / "check-exercise.js"
CODE_SUFFIXES = {".js", ".cjs", ".mjs", ".ts"}
SKIP = {"node_modules", ".ipynb_checkpoints", "__pycache__", ".DS_Store"}
APP_DIR, START_DIR = "app", "start"
# exercises/<name>/backup-<timestamp>/: a learner's files saved by `reset` (git-ignored). Generation keeps
# them, and the regeneration check does not count them.
BACKUP_PREFIX = "backup-"


class MarkerError(Exception):
    pass


# --------------------------------------------------------------------------- generation

def _marker(line: str, kind: str) -> str | None:
    """'BEGIN SOLUTION' etc. when the line is a marker of this kind of file, else None."""
    s = line.strip()
    m = re.fullmatch(r"//\s*((?:BEGIN|END) (?:SOLUTION|STUB))", s) if kind == "code" else \
        re.fullmatch(r"<!--\s*((?:BEGIN|END) SOLUTION)\s*-->", s)
    return m.group(1) if m else None


def _uncomment(line: str, indent: str, where: str) -> str:
    if not line.strip():
        return ""
    if not line.startswith(indent + "//"):
        raise MarkerError(f"{where}: a STUB line must be a `//` comment at the marker's indentation: {line!r}")
    rest = line[len(indent) + 2:]
    rest = rest[1:] if rest.startswith(" ") else rest
    return indent + rest if rest.strip() else ""


def transform(text: str, kind: str, where: str) -> str:
    """The exercise's text from the solution's: solution regions out, stubs and hints in."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = _marker(lines[i], kind)
        if m is None:
            out.append(lines[i])
            i += 1
            continue
        if m != "BEGIN SOLUTION":
            raise MarkerError(f"{where}:{i + 1}: `{m}` without a BEGIN SOLUTION before it")
        indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        begin, i = i, i + 1
        hints = []
        while i < len(lines) and _marker(lines[i], kind) != "END SOLUTION":
            if _marker(lines[i], kind):
                raise MarkerError(f"{where}:{i + 1}: `{_marker(lines[i], kind)}` inside the SOLUTION region opened at line {begin + 1}")
            if kind == "code" and lines[i].strip().startswith("// HINT:"):
                hints.append(lines[i])
            i += 1
        if i == len(lines):
            raise MarkerError(f"{where}:{begin + 1}: BEGIN SOLUTION is never closed")
        i += 1
        out.extend(hints)
        if i < len(lines) and _marker(lines[i], kind) == "BEGIN STUB":
            stub_begin, i = i, i + 1
            while i < len(lines) and _marker(lines[i], kind) != "END STUB":
                if _marker(lines[i], kind):
                    raise MarkerError(f"{where}:{i + 1}: `{_marker(lines[i], kind)}` inside the STUB region opened at line {stub_begin + 1}")
                out.append(_uncomment(lines[i], indent, f"{where}:{i + 1}"))
                i += 1
            if i == len(lines):
                raise MarkerError(f"{where}:{stub_begin + 1}: BEGIN STUB is never closed")
            i += 1
        elif kind == "code":
            out.append(f"{indent}// YOUR CODE HERE")
    return "\n".join(out)


def _header(rel: str, start: bool) -> str:
    if start:
        return (f"// GENERATED by scripts/exercises.py from solutions/{rel}: the untouched starting point. "
                "The check measures your app against this copy; do not edit it.")
    return (f"// GENERATED by scripts/exercises.py from solutions/{rel} (make exercises). "
            "Learners: this is your copy; the exercise's README says which parts to change. Authors: edit the solution instead.")


def _with_header(text: str, header: str) -> str:
    if text.startswith("#!"):
        first, _, rest = text.partition("\n")
        return f"{first}\n{header}\n{rest}"
    return f"{header}\n{text}"


def generate_notebook(src: Path, rel: str) -> str:
    nb = nbformat.read(src, as_version=4)
    nb = copy.deepcopy(nb)
    for n, cell in enumerate(nb.cells):
        kind = "code" if cell.cell_type == "code" else "md"
        cell.source = transform(cell.source, kind, f"{rel} cell {n}")
    comment = f"<!-- GENERATED by scripts/exercises.py from solutions/{rel} (make exercises): edit the solution, not this file. -->"
    nb.cells.insert(0, nbformat.v4.new_markdown_cell(comment))
    return nbformat.writes(strip(nb)) + "\n"


def generate_file(src: Path, rel: str, *, start: bool = False) -> str:
    text = src.read_text()
    if src.suffix in CODE_SUFFIXES:
        return _with_header(transform(text, "code", rel), _header(rel, start))
    if src.suffix == ".md":
        body = transform(text, "md", rel)
        return f"<!-- GENERATED by scripts/exercises.py from solutions/{rel} (make exercises): edit the solution, not this file. -->\n{body}"
    if src.suffix == ".json":
        data = json.loads(text)
        return json.dumps({"//": f"GENERATED by scripts/exercises.py from solutions/{rel}: edit the solution, not this file.", **data},
                          indent=2) + "\n"
    raise MarkerError(f"solutions/{rel}: no rule for {src.suffix or 'files without a suffix'} files; "
                      "exercises hold code (.js .cjs .mjs .ts), Markdown, JSON and the notebook")


def solution_dirs(root: Path = SOLUTIONS) -> list[Path]:
    return sorted(p.parent for p in root.glob("*/check.json"))


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and not SKIP.intersection(p.relative_to(folder).parts)
                  and not p.relative_to(folder).parts[0].startswith(BACKUP_PREFIX))


def generate_one(sol: Path, dest: Path) -> None:
    if not (sol / APP_DIR).is_dir():
        raise MarkerError(f"{sol}: an exercise keeps the learner's files in {APP_DIR}/")
    if dest.exists():  # everything but the learner's backups (make reset-exercise)
        for entry in dest.iterdir():
            if entry.is_dir() and entry.name.startswith(BACKUP_PREFIX):
                continue
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
    baseline = json.loads((sol / "check.json").read_text()).get("baseline", {})
    keeps_start = str(baseline.get("entry", "")).startswith(f"{START_DIR}/")
    for f in _files(sol):
        rel_in = f.relative_to(sol)
        rel = f"{sol.name}/{rel_in.as_posix()}"
        out = dest / rel_in
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(generate_notebook(f, rel) if f.suffix == ".ipynb" else generate_file(f, rel))
        if rel_in.parts[0] == APP_DIR and keeps_start:
            start = dest / START_DIR / Path(*rel_in.parts[1:])
            start.parent.mkdir(parents=True, exist_ok=True)
            start.write_text(generate_file(f, rel, start=True))


INDEX_TEMPLATE = SOLUTIONS / "exercises-README.md"


def _number(x: float) -> str:
    return f"{x:g}"


def pass_rule(spec: dict) -> str:
    """What an exercise's check asks, in one line, from its check.json (the index table, the grading report)."""
    base = spec.get("baselineName", "the starting point")
    load = spec["load"]
    t = _number(spec["threshold"])
    metric = spec.get("metric", "reqPerSec")
    if metric == "reqPerSec":
        rule = f">= {t}x {base}'s req/s on `{load.get('path', '/')}` at {load.get('connections', 50)} connections"
    elif metric == "heapGrowth":
        bound = f" and at most {_number(spec['maxGrowthMB'])} MB" if "maxGrowthMB" in spec else ""
        path = load.get("path", "/")
        spread = f" ({{i}} from 0 to {load['cycle'] - 1} in turn)" if "{i}" in path and "cycle" in load else ""
        clock = "".join(f", with {k}={v}" for k, v in spec.get("env", {}).items())
        rule = (f"the heap alive after {_number(load['requests'])} requests to `{path}`{spread}{clock}, after the same load once, "
                f"grows >= {t}x less than {base}'s{bound}")
    else:
        rule = f"`{load.get('path', '/')}`'s {metric} at {_number(load['rate'])} req/s >= {t}x lower than {base}'s"
    bg = spec.get("background")
    if bg:
        pace = (f"paced to keep {base} busy {round(bg['busyShare'] * 100)} % of the time" if "busyShare" in bg
                else f"{_number(bg['rate'])} a second")
        rule += f", while `{bg['path'].split('?')[0]}` is asked in the background ({pace})"
    return rule + ", same answers"


def generate_index(out: Path) -> None:
    """exercises/README.md: the template's text, with a table of the exercises made from their specs."""
    rows = ["| exercise | task | to pass |", "|---|---|---|"]
    for sol in solution_dirs():
        spec = json.loads((sol / "check.json").read_text())
        rows.append(f"| [`{sol.name}`]({sol.name}/README.md) | {spec.get('title', '')} | {pass_rule(spec)} |")
    text = INDEX_TEMPLATE.read_text()
    if "{{exercises}}" not in text:
        raise MarkerError(f"{INDEX_TEMPLATE.relative_to(ROOT)}: no {{{{exercises}}}} line for the table of exercises")
    body = text.replace("{{exercises}}", "\n".join(rows))
    header = (f"<!-- GENERATED by scripts/exercises.py from {INDEX_TEMPLATE.relative_to(ROOT)} and each solution's check.json "
              "(make exercises): edit those, not this file. -->")
    (out / "README.md").write_text(f"{header}\n{body}")


def generate(out: Path = EXERCISES) -> list[str]:
    names = []
    out.mkdir(parents=True, exist_ok=True)
    for sol in solution_dirs():
        generate_one(sol, out / sol.name)
        names.append(sol.name)
    generate_index(out)
    return names


def differences(a: Path, b: Path) -> list[str]:
    """Files that differ between two exercise trees (a: committed, b: fresh)."""
    found = []
    top_a = {p.name for p in a.iterdir() if p.is_file()} if a.exists() else set()
    top_b = {p.name for p in b.iterdir() if p.is_file()}
    for name in sorted(top_a | top_b):
        if name not in top_b:
            found.append(f"exercises/{name}: not generated from solutions/ (remove it, or generate it)")
        elif name not in top_a:
            found.append(f"exercises/{name}: missing")
        elif not filecmp.cmp(a / name, b / name, shallow=False):
            found.append(f"exercises/{name}: differs from a fresh generation")
    names_a = {p.name for p in a.iterdir() if p.is_dir()} if a.exists() else set()
    names_b = {p.name for p in b.iterdir() if p.is_dir()}
    for name in sorted(names_a | names_b):
        if name not in names_b:
            found.append(f"exercises/{name}/ has no solution in solutions/{name}/ (remove it, or write the solution)")
            continue
        if name not in names_a:
            found.append(f"exercises/{name}/ is missing: run make exercises")
            continue
        fa = {p.relative_to(a / name) for p in _files(a / name)}
        fb = {p.relative_to(b / name) for p in _files(b / name)}
        for rel in sorted(fa | fb):
            if rel not in fa:
                found.append(f"exercises/{name}/{rel}: missing")
            elif rel not in fb:
                found.append(f"exercises/{name}/{rel}: not generated from the solution")
            elif not filecmp.cmp(a / name / rel, b / name / rel, shallow=False):
                found.append(f"exercises/{name}/{rel}: differs from a fresh generation")
    return found


def check() -> int:
    with tempfile.TemporaryDirectory(prefix="wb-exercises-") as tmp:
        generate(Path(tmp))
        found = differences(EXERCISES, Path(tmp))
    for line in found:
        print(line)
    if found:
        print("exercises/ is out of date: edit solutions/, then run `make exercises`.")
        return 1
    print("exercises/ matches a fresh generation from solutions/")
    return 0


# --------------------------------------------------------------------------- reset one exercise

class ResetError(Exception):
    pass


def _starting_files(exercise_dir: Path) -> list[Path]:
    """What `reset` restores, relative to the exercise folder: app/ and the notebook(s) at the top."""
    return sorted([f.relative_to(exercise_dir) for f in _files(exercise_dir / APP_DIR)] +
                  [f.relative_to(exercise_dir) for f in exercise_dir.glob("*.ipynb")])


def reset(name: str | None, exercises_dir: Path = EXERCISES, *, stamp: str | None = None) -> dict:
    """Restore one exercise's app/ and notebook as `generate` writes them, after copying the learner's
    edited, added (and so about to be removed) files into <exercise>/backup-<stamp>/.
    Returns {"backup": folder or None, "backed_up": [...], "restored": [...], "removed": [...]}."""
    names = [p.name for p in solution_dirs()]
    listing = ", ".join(names)
    if not name:
        raise ResetError(f"which exercise? usage: make reset-exercise EXERCISE=<name>, one of: {listing}")
    if name not in names:
        raise ResetError(f"no exercise named {name!r}; the exercises are: {listing}")
    here = exercises_dir / name
    if not (here / "check.json").is_file():  # the whole folder is gone: generate it again
        generate_one(SOLUTIONS / name, here)
        return {"backup": None, "backed_up": [], "removed": [],
                "restored": [r.as_posix() for r in _starting_files(here)]}
    with tempfile.TemporaryDirectory(prefix="wb-reset-") as tmp:
        fresh = Path(tmp) / name
        generate_one(SOLUTIONS / name, fresh)
        start = _starting_files(fresh)
        current = _starting_files(here) if here.is_dir() else []
        added = [rel for rel in current if rel not in start and rel.parts[0] == APP_DIR]
        edited = [rel for rel in current if rel in start and not filecmp.cmp(here / rel, fresh / rel, shallow=False)]
        restored = [rel for rel in start if not (here / rel).is_file() or rel in edited]
        backup = None
        if edited or added:
            stamp = stamp or time.strftime("%Y%m%d-%H%M%S")
            backup = here / f"{BACKUP_PREFIX}{stamp}"
            n = 2
            while backup.exists():
                backup = here / f"{BACKUP_PREFIX}{stamp}-{n}"
                n += 1
            for rel in edited + added:
                (backup / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(here / rel, backup / rel)
        for rel in added:  # copied into the backup above: app/ holds the starting files only
            (here / rel).unlink()
            parent = (here / rel).parent
            while parent != here / APP_DIR and parent.is_dir() and not any(parent.iterdir()):
                parent.rmdir()
                parent = parent.parent
        for rel in restored:
            (here / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(fresh / rel, here / rel)
    return {"backup": backup, "backed_up": [r.as_posix() for r in edited + added],
            "restored": [r.as_posix() for r in restored], "removed": [r.as_posix() for r in added]}


# --------------------------------------------------------------------------- grading

def hard_timeout() -> int:
    """Seconds one check may take, all included: two apps, both measured every round. Longer than
    the check's own watchdog (about 170 s quick, 320 s full), whose message is friendlier."""
    quick = os.environ.get("WORKBOOK_PROFILE", "full").lower() == "quick"
    return 240 if quick else 480


def _copy_submission(learner_ex: Path, dest: Path) -> list[str]:
    """Copy a learner's files over the pristine exercise copy in dest; return what was taken.

    A submission holds app/... (as in the exercise folder), or the app files directly.
    Notebooks, READMEs, check.json and start/ are never taken: the check uses the pristine ones."""
    src = learner_ex / APP_DIR if (learner_ex / APP_DIR).is_dir() else learner_ex
    taken = []
    for f in _files(src):
        rel = f.relative_to(src)
        if rel.parts[0] in (START_DIR, APP_DIR) or f.suffix in (".ipynb", ".md") or rel.name == "check.json":
            continue
        out = dest / APP_DIR / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, out)  # contents only: the learner's file is read, never touched
        taken.append(rel.as_posix())
    return taken


def _kill_group(proc: subprocess.Popen) -> None:
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


def grade_one(learner_ex: Path, exercise: Path, timeout: int) -> dict:
    """Check one learner's exercise in a fresh temporary copy of the workbook's layout."""
    with tempfile.TemporaryDirectory(prefix="wb-grade-") as tmp:
        root = Path(tmp)
        for shared in ("apps", "node_modules"):  # so the app's ../../../apps and require('x') resolve
            (root / shared).symlink_to(ROOT / shared)
        work = root / "exercises" / exercise.name
        shutil.copytree(exercise, work, ignore=shutil.ignore_patterns(*SKIP))
        taken = _copy_submission(learner_ex, work)
        if not taken:
            return {"pass": False, "ratio": None, "message": f"no app files found in {learner_ex.name}/ (expected {APP_DIR}/...)"}
        out = root / "result.json"
        proc = subprocess.Popen([str(NODE), str(RUNNER), "--exercise-dir", str(work), "--out", str(out)],
                                cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=True, text=True)
        try:
            log, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            return {"pass": False, "ratio": None, "message": f"the check did not finish within {timeout} s and was stopped"}
        except BaseException:  # Ctrl-C: the check runs in a session of its own, which the terminal's SIGINT does not reach
            _kill_group(proc)
            raise
        if not out.exists():
            tail = "\n".join((log or "").strip().splitlines()[-15:])
            return {"pass": False, "ratio": None, "message": f"the check crashed (exit {proc.returncode}): {tail}"}
        return json.loads(out.read_text())


RESULTS = ("pass", "fail", "missing", "skipped")


def _row(learner: str, exercise: str, result: str, message: str, ratio: float | None = None, seconds: float | None = None) -> dict:
    return {"learner": learner, "exercise": exercise, "result": result, "ratio": ratio, "seconds": seconds,
            "message": " ".join(str(message).split())}


def grade(submissions: Path, out: Path, only: str | None = None, timeout: int | None = None) -> list[dict]:
    """One row per learner and exercise (graded, or "missing"), and one per entry that is not an exercise
    ("skipped"). The reports are rewritten after every row, so an interrupted run keeps what it graded."""
    timeout = timeout or hard_timeout()
    rows: list[dict] = []
    # Against a fresh generation, not the working exercises/ (which an instructor may have tried out).
    with tempfile.TemporaryDirectory(prefix="wb-grade-exercises-") as tmp:
        generate(Path(tmp))
        exercises = {p.name: p for p in sorted(Path(tmp).iterdir()) if (p / "check.json").is_file()}
        specs = {name: json.loads((p / "check.json").read_text()) for name, p in exercises.items()}
        if only is not None and only not in exercises:
            raise ValueError(f"--only {only}: no such exercise (expected one of: {', '.join(exercises)})")
        names = [n for n in exercises if only is None or n == only]
        expected = ", ".join(f"{n}/" for n in exercises)

        def add(row: dict) -> None:
            rows.append(row)
            ratio = "" if row["ratio"] is None else f"  ratio {row['ratio']}"
            print(f"  {row['learner']} / {row['exercise'] or '-'}: {row['result'].upper()}{ratio}  {row['message'][:160]}", flush=True)
            write_reports(rows, out, specs)

        write_reports(rows, out, specs)
        for entry in sorted(submissions.iterdir()):
            if entry.name.startswith("."):
                continue
            if not entry.is_dir():
                print(f"warning: {entry.name} is a file, not a learner's folder", file=sys.stderr, flush=True)
                add(_row(entry.name, "", "skipped", f"a file, not a learner's folder: SUBMISSIONS holds one folder per learner "
                                                     f"(unpack {entry.name} into a folder?); not graded"))
                continue
            inside = sorted(p for p in entry.iterdir() if not p.name.startswith("."))
            for other in inside:
                if other.name not in exercises:
                    kind = "a folder" if other.is_dir() else "a file"
                    add(_row(entry.name, other.name, "skipped", f"{kind} that is not an exercise (expected {expected}); not graded"))
            present = {p.name for p in inside if p.is_dir()}
            for name in names:
                if name not in present:
                    add(_row(entry.name, name, "missing", f"not handed in: no {name}/ folder in {entry.name}/"))
                    continue
                print(f"grading {entry.name} / {name} ...", flush=True)
                started = time.monotonic()
                try:
                    r = grade_one(entry / name, exercises[name], timeout)
                except Exception as err:  # one broken submission never stops the batch
                    r = {"pass": False, "ratio": None, "message": f"grading failed: {type(err).__name__}: {err}"}
                add(_row(entry.name, name, "pass" if r.get("pass") else "fail", r.get("message", ""), r.get("ratio"),
                         round(time.monotonic() - started, 1)))
    return rows


def ratio_meaning(spec: dict) -> str:
    base = spec.get("baselineName", "the starting point")
    metric = spec.get("metric", "reqPerSec")
    path = spec["load"].get("path", "/")
    if metric == "reqPerSec":
        what = f"req/s on {path}, the learner's app over {base}'s"
    elif metric == "heapGrowth":
        what = f"how many times less heap {path}'s requests left alive than {base}'s"
    else:
        what = f"how many times lower {path}'s {metric} latency was than {base}'s"
    return f"{what}, measured in the same run; passes at {_number(spec['threshold'])}x"


def _replace(path: Path, text: str) -> None:
    """Write whole or not at all: an interrupted run never leaves half a report."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def write_reports(rows: list[dict], out: Path, specs: dict[str, dict]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    fields = ["learner", "exercise", "result", "ratio", "seconds", "message"]
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({**r, "ratio": "" if r["ratio"] is None else f"{r['ratio']:.2f}", "seconds": "" if r["seconds"] is None else r["seconds"]})
    _replace(out / "grades.csv", buf.getvalue())
    count = {k: sum(r["result"] == k for r in rows) for k in RESULTS}
    checked = count["pass"] + count["fail"]

    def row(r: dict) -> str:
        ratio = "" if r["ratio"] is None else f"{r['ratio']:.2f}x"
        return (f"<tr class={r['result']}><td>{html.escape(r['learner'])}</td><td>{html.escape(r['exercise'])}</td>"
                f"<td>{r['result']}</td><td>{ratio}</td><td>{html.escape(r['message'])}</td></tr>")
    legend = "\n".join(f"<li><b>{html.escape(name)}</b>: {html.escape(ratio_meaning(spec))}</li>" for name, spec in specs.items())
    body = "\n".join(row(r) for r in rows)
    _replace(out / "grades.html", f"""<!doctype html>
<meta charset="utf-8"><title>Workbook grades</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}}
td:nth-child(3){{font-weight:bold}}tr.pass td:nth-child(3){{color:#17653a}}tr.fail td:nth-child(3){{color:#a4161a}}tr.missing td:nth-child(3),tr.skipped td:nth-child(3){{color:#8a6d00}}</style>
<h1>Workbook grades</h1>
<p>{count['pass']} of {checked} checks passed; {count['missing']} not handed in; {count['skipped']} entries not graded
({html.escape(os.environ.get('WORKBOOK_PROFILE', 'full'))} profile).</p>
<p>What the ratio means, per exercise:</p>
<ul>
{legend}
</ul>
<table><tr><th>learner</th><th>exercise</th><th>result</th><th>ratio</th><th>message</th></tr>
{body}
</table>
""")


# --------------------------------------------------------------------------- command line

def _reset_command(name: str | None, exercises_dir: Path) -> int:
    try:
        done = reset(name, exercises_dir)
    except ResetError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    where = exercises_dir / name
    where = where.relative_to(ROOT) if where.is_relative_to(ROOT) else where
    if done["backup"]:
        print(f"{where}: your files are saved in {where}/{done['backup'].name}/: {', '.join(done['backed_up'])}")
    if done["removed"]:
        print(f"{where}: removed from app/ (they are in the backup): {', '.join(done['removed'])}")
    if done["restored"]:
        print(f"{where}: restored the starting {', '.join(done['restored'])}")
    if not (done["backup"] or done["restored"]):
        print(f"{where}: app/ and the notebook are already the starting files; nothing to do")
    return 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--out", type=Path, default=EXERCISES)
    sub.add_parser("check")
    rs = sub.add_parser("reset", help="restore an exercise's app/ and notebook, backing up the learner's files first")
    rs.add_argument("exercise", nargs="?", help="e.g. 01-etag")
    rs.add_argument("--exercises-dir", type=Path, default=EXERCISES, help="the learner's exercises folder (default exercises/)")
    gr = sub.add_parser("grade")
    gr.add_argument("submissions", type=Path)
    gr.add_argument("--out", type=Path, default=ROOT / "build" / "grades")
    gr.add_argument("--only", help="grade this exercise only")
    gr.add_argument("--timeout", type=int, help="seconds one check may take, all included, before it is stopped (default: 240 quick, 480 full)")
    args = ap.parse_args(argv[1:])
    try:
        if args.cmd == "generate":
            for name in generate(args.out):
                print(f"generated {args.out / name}")
            return 0
        if args.cmd == "check":
            return check()
        if args.cmd == "reset":
            return _reset_command(args.exercise, args.exercises_dir.resolve())
    except MarkerError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if not args.submissions.is_dir():
        print(f"error: {args.submissions} is not a folder of learner submissions", file=sys.stderr)
        return 2
    try:
        rows = grade(args.submissions.resolve(), args.out, args.only, args.timeout)
    except (ValueError, MarkerError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"interrupted: the rows graded so far are in {args.out / 'grades.csv'} and {args.out / 'grades.html'}", file=sys.stderr)
        return 130
    count = {k: sum(r["result"] == k for r in rows) for k in RESULTS}
    print(f"{count['pass']} of {count['pass'] + count['fail']} checks passed, {count['missing']} not handed in, "
          f"{count['skipped']} entries not graded; wrote {args.out / 'grades.csv'} and {args.out / 'grades.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
