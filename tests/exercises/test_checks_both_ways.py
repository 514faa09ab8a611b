"""Integration (make test-integration): each exercise's check, both ways, as `make grade` runs it
(scripts/check-exercise.js, one process each, no kernel): the reference solution passes, and the
untouched exercise fails on its ratio alone, its answers matching, with the friendly message and
hints a learner reads. And each check fails on a plausible half-fix (tests/fixtures/submissions/half-fix/),
graded by `make grade`'s script, and exercise 05's passes two bounded fixes other than its solution. The same checks run in each notebook's kernel, the notebooks end to end, in
tests/exercises/test_notebooks_both_ways.py. Both compare timings of live apps, so neither is in
make test."""
from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
NODE = ROOT / "node_modules" / "node" / "bin" / "node"
NAMES = sorted(p.parent.name for p in (ROOT / "solutions").glob("*/check.json"))


def check(name: str, submission: Path, run, tmp_path: Path) -> tuple[subprocess.CompletedProcess, dict]:
    out = tmp_path / "result.json"
    env = {**os.environ, "WORKBOOK_RUN_ID": run.marker, "WORKBOOK_RESULTS_DIR": str(run.results)}
    done = subprocess.run([str(NODE), "scripts/check-exercise.js", name, "--submission-dir", str(submission),
                           "--out", str(out)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    result = json.loads(out.read_text()) if out.exists() else {}
    return done, result


@pytest.mark.parametrize("name", NAMES)
def test_the_solution_passes_its_check(name, run, tmp_path):
    done, result = check(name, ROOT / "solutions" / name, run, tmp_path)
    run.assert_nothing_left()
    assert done.returncode == 0 and result.get("pass") is True, done.stdout[-3000:] + done.stderr[-3000:]
    assert f"PASS: exercise {name}" in done.stdout and "answers match" in done.stdout, done.stdout


@pytest.mark.parametrize("name", NAMES)
def test_the_untouched_exercise_fails_its_check_on_its_ratio_with_a_friendly_message(name, run, tmp_path):
    done, result = check(name, ROOT / "exercises" / name, run, tmp_path)
    run.assert_nothing_left()
    text = done.stdout
    assert done.returncode == 1 and result.get("pass") is False, text[-3000:] + done.stderr[-3000:]
    assert result["details"]["stage"] == "ratio", f"it failed before measuring: {result['message']}"
    assert f"FAIL: exercise {name}" in text, text
    assert "the exercise asks for at least" in text and "Hints:" in text, text
    assert "answers match" in text, "the untouched exercise answers like the starting point: it fails on speed alone"


SUBMISSIONS = ROOT / "tests" / "fixtures" / "submissions"
# (learner, exercise) -> (result, a pattern its message must match). Each half-fix is one a learner might
# hand in: it answers right and does part of the job; each must fail on its ratio (its answers match).
MEASURED = "the exercise asks for at least"
FIXTURES = {
    # the planted bug fixed, nothing else: the fixed server itself, about 1x
    ("half-fix", "01-etag"): ("fail", rf"req/s against the fixed server \(apps/etag-fixed\)'s .*{MEASURED} 1\.3x\. All 4 answers match"),
    # promises and async/await around the same synchronous rounds
    ("half-fix", "02-unblock"): ("fail", rf"had a p99 latency of .*{MEASURED} 3x\. All 6 answers match"),
    # the audit log removed, express and its other layers kept
    ("half-fix", "03-faster-framework"): ("fail", rf"{MEASURED} 2x\. All 4 answers match"),
    # the deep copy removed, a RegExp per product per request kept
    ("half-fix", "04-hot-path"): ("fail", rf"{MEASURED} 3x\. All 8 answers match"),
    # the cache keyed by product and minute, and never emptied: one quote per product per minute, forever
    ("half-fix", "05-leak"): ("fail", rf"Your app's heap grew \d+\.\d MB .*{MEASURED} 5x less and at most 5 MB of growth\. All 7 answers match"),
    # the etag made cheap, JSON.stringify with its replacer kept
    ("half-fix", "06-serialise"): ("fail", rf"{MEASURED} 2x\. All 7 answers match"),
    # bounded fixes of 05 other than the solution's (a cache emptied when the minute changes)
    ("lru-bound", "05-leak"): ("pass", rf"{MEASURED} 5x less and at most 5 MB of growth\. All 7 answers match"),
    ("ttl-sweep", "05-leak"): ("pass", rf"{MEASURED} 5x less and at most 5 MB of growth\. All 7 answers match"),
}


@pytest.mark.parametrize("learner,name", sorted(FIXTURES))
def test_each_check_fails_a_half_fix_and_05_passes_other_bounded_fixes(learner, name, run, tmp_path):
    subs = tmp_path / "subs"
    shutil.copytree(SUBMISSIONS / learner / name, subs / learner / name)
    env = {**os.environ, "WORKBOOK_RUN_ID": run.marker}
    done = subprocess.run([sys.executable, "scripts/exercises.py", "grade", str(subs), "--only", name,
                           "--out", str(tmp_path / "out")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    run.assert_nothing_left()
    rows = list(csv.DictReader(open(tmp_path / "out" / "grades.csv")))
    assert [(r["learner"], r["exercise"]) for r in rows] == [(learner, name)], done.stdout[-3000:] + done.stderr[-3000:]
    result, pattern = FIXTURES[(learner, name)]
    assert rows[0]["result"] == result, rows[0]["message"]
    assert re.search(pattern, rows[0]["message"]), rows[0]["message"]
