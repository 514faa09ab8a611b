"""Grading a class: every learner's exercises checked in a fresh copy of the workbook's layout, one
row each, and the reports (grades.csv, grades.html) rewritten after every row. The command line is
`scripts/exercises.py grade` (make grade); the exercises it grades are generated afresh
(generation.py), never the working exercises/.
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from generation import APP_DIR, NODE, ROOT, RUNNER, SKIP, START_DIR, _files, _number, generate  # noqa: E402


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
