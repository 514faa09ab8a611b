"""Integration (make test-integration): each exercise's check as `make grade` runs it
(scripts/check-exercise.js, one process each, no kernel), on submissions a learner might hand in
(tests/fixtures/submissions/): each check fails on a plausible half-fix, on its ratio alone, its
answers matching, and exercise 05's passes two bounded fixes other than its solution. The solution
passing and the untouched exercise failing, with the message and hints a learner reads, are checked
once, in each notebook's kernel (test_notebooks_both_ways.py; the check is the same function either
way), and through this script once more by test_grading.py (04: the solver passes, the still-slow
learner fails). Both compare timings of live apps, so neither is in make test; that every exercise
has a half-fix is bookkeeping, and is (make test-exercises)."""
from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NAMES = sorted(p.parent.name for p in (ROOT / "solutions").glob("*/check.json"))


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


def test_every_exercise_has_a_half_fix():
    assert sorted(name for learner, name in FIXTURES if learner == "half-fix") == NAMES


@pytest.mark.integration
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
