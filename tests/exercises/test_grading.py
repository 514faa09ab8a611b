"""Integration (make test-integration): grading a class. `make grade` runs scripts/exercises.py grade
on a folder of submissions. On the fixture submissions (tests/fixtures/submissions/<learner>/<exercise>/,
the learners of HANDED_IN),
every known-bad submission fails with a clear message and none hangs, the solver passes, the batch
never stops, the reports are written, and no learner file is touched. The grader's bookkeeping without
checks is in test_grading_rows.py (make test)."""
from __future__ import annotations

import csv
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.integration
SUBMISSIONS = ROOT / "tests" / "fixtures" / "submissions"
PY = sys.executable

# (learner, exercise) -> (result, a pattern the message must match)
# The measured checks cost half a minute each, so only 04-hot-path is graded both ways here (the
# solver passes, the still-slow learner fails on speed); every exercise's check is run both ways in
# its own notebook in test_notebooks_both_ways.py, and on a half-fix through this script in
# test_checks_both_ways.py. The other learners fail before any load.
EXERCISES = ("01-etag", "02-unblock", "03-faster-framework", "04-hot-path", "05-leak", "06-serialise")
HANDED_IN = {
    "answers-500": ("01-etag", "02-unblock", "03-faster-framework", "04-hot-path"),
    "crashes-at-start": ("01-etag", "02-unblock", "03-faster-framework", "04-hot-path"),
    "crashes-on-request": ("01-etag", "02-unblock"),
    "never-listens": ("04-hot-path",),
    "no-app": ("04-hot-path",),
    "solver": ("04-hot-path",),
    "still-slow": ("04-hot-path",),
    "syntax-error": ("01-etag", "02-unblock", "03-faster-framework", "04-hot-path"),
    "wrong-answers": ("01-etag", "02-unblock", "03-faster-framework", "04-hot-path"),
    "wrong-folder": (),
}

# (learner, exercise) -> (result, a pattern the message must match)
EXPECTED = {
    **{(learner, exercise): ("missing", rf"not handed in: no {exercise}/ folder in {learner}/")
       for learner, handed in HANDED_IN.items() for exercise in EXERCISES if exercise not in handed},
    ("ada.zip", ""): ("skipped", r"a file, not a learner's folder: SUBMISSIONS holds one folder per learner \(unpack ada\.zip into a folder\?\); not graded"),
    ("answers-500", "01-etag"): ("fail", r"Your app started but answered 500 to GET /seed/v1: ReferenceError: timestmap is not defined \(app/server\.js:\d+\)"),
    ("answers-500", "02-unblock"): ("fail", r"Your app started but answered 500 to GET /cheap: ReferenceError: CHEEP is not defined \(app/server\.js:\d+\)"),
    ("answers-500", "03-faster-framework"): ("fail", r"answered 500 to GET /json: ReferenceError: greting is not defined"),
    ("answers-500", "04-hot-path"): ("fail", r"answered 500 to GET /products\?tag=red: ReferenceError: byTags is not defined \(app/server\.js:\d+\)"),
    ("crashes-at-start", "01-etag"): ("fail", r"exited before it listened \(code 1\): .*Cannot find module 'restfy' \(app/server\.js:\d+\)"),
    ("crashes-at-start", "02-unblock"): ("fail", r"exited before it listened \(code 1\): .*No such built-in module: node:crypt \(app/server\.js:\d+\)"),
    ("crashes-at-start", "03-faster-framework"): ("fail", r"exited before it listened \(code 1\): .*Missing handler function .*\(app/server\.js:\d+\)"),
    ("crashes-at-start", "04-hot-path"): ("fail", r"exited before it listened \(code 1\): .*Cannot find module '\./catalog' \(app/server\.js:\d+\)"),
    ("crashes-on-request", "01-etag"): ("fail", r"Your app crashed on its first request, GET /seed/v1: ReferenceError: timestmap is not defined \(app/server\.js:\d+\)\.$"),
    ("crashes-on-request", "02-unblock"): ("fail", r"Your app crashed on its first request, GET /cheap: ReferenceError: CHEEP is not defined \(app/server\.js:\d+\)\.$"),
    ("never-listens", "04-hot-path"): ("fail", r"Your app never listened \(waited 10000 ms\)"),
    ("no-app", "04-hot-path"): ("fail", r"no app files found in 04-hot-path/"),
    ("solver", "04-hot-path"): ("pass", r"All 8 answers match"),
    ("still-slow", "04-hot-path"): ("fail", r"x; the exercise asks for at least 3x\. All 8 answers match"),
    ("syntax-error", "01-etag"): ("fail", r"SyntaxError: Unexpected end of input \(app/server\.js:\d+\)"),
    ("syntax-error", "02-unblock"): ("fail", r"SyntaxError: Unexpected end of input \(app/server\.js:\d+\)"),
    ("syntax-error", "03-faster-framework"): ("fail", r"SyntaxError: Unexpected token '\)' \(app/server\.js:\d+\)"),
    ("syntax-error", "04-hot-path"): ("fail", r"SyntaxError: Unexpected end of input"),
    ("wrong-answers", "01-etag"): ("fail", r'differ from the fixed server \(apps/etag-fixed\)\'s; first GET /seed/v1: the JSON\'s shape .*expected .*"ts\\?":\\?"number'),
    ("wrong-answers", "02-unblock"): ("fail", r"first GET /report\?user=ada: body differs at character \d+"),
    ("wrong-answers", "03-faster-framework"): ("fail", r'first GET /json: content-type "application/json", expected "application/json; charset=utf-8"'),
    ("wrong-answers", "04-hot-path"): ("fail", r"first GET /products\?tag=nosuchtag: status 404, expected 200"),
    ("wrong-folder", "hot-path"): ("skipped", r"a folder that is not an exercise \(expected 01-etag/, 02-unblock/, 03-faster-framework/, 04-hot-path/, 05-leak/, 06-serialise/\); not graded"),
}
CHECKED = sum(result in ("pass", "fail") for result, _ in EXPECTED.values())
PASSED = sum(result == "pass" for result, _ in EXPECTED.values())


def snapshot(folder: Path) -> dict[str, tuple[str, int]]:
    return {str(p.relative_to(folder)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.lstat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file() or p.is_symlink()}


def grade(submissions: Path, out: Path, run, *extra: str) -> tuple[subprocess.CompletedProcess, float]:
    env = {**os.environ, "WORKBOOK_RUN_ID": run.marker}
    started = time.monotonic()
    done = subprocess.run([PY, "scripts/exercises.py", "grade", str(submissions), "--out", str(out), *extra],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    return done, time.monotonic() - started


def the_class(folder: Path) -> Path:
    """The learners of this test (HANDED_IN, and ada.zip), copied with their files' times: the other fixture
    learners (half-fix, lru-bound, ttl-sweep) are checked one by one in test_checks_both_ways.py."""
    for learner in HANDED_IN:
        shutil.copytree(SUBMISSIONS / learner, folder / learner)
    shutil.copy2(SUBMISSIONS / "ada.zip", folder / "ada.zip")
    return folder


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    from conftest import Run  # the isolated run of tests/notebooks, loaded by this folder's conftest
    tmp = tmp_path_factory.mktemp("grades")
    run = Run(tmp / "results")
    submissions = the_class(tmp / "submissions")
    before = snapshot(submissions)
    done, seconds = grade(submissions, tmp / "out", run)
    after = snapshot(submissions)
    rows = list(csv.DictReader(open(tmp / "out" / "grades.csv"))) if (tmp / "out" / "grades.csv").exists() else []
    return {"done": done, "seconds": seconds, "rows": rows, "out": tmp / "out", "before": before, "after": after, "run": run}


def test_the_batch_finishes_and_writes_both_reports(graded):
    assert graded["done"].returncode == 0, graded["done"].stdout[-3000:] + graded["done"].stderr[-3000:]
    assert (graded["out"] / "grades.html").exists()
    assert list(graded["rows"][0].keys()) == ["learner", "exercise", "result", "ratio", "seconds", "message"]
    graded["run"].assert_nothing_left()


def test_one_row_per_learner_and_exercise_each_with_a_clear_message(graded):
    got = {(r["learner"], r["exercise"]): r for r in graded["rows"]}
    assert set(got) == set(EXPECTED), f"rows: {sorted(got)}"
    for key, (result, pattern) in EXPECTED.items():
        row = got[key]
        assert row["result"] == result, f"{key}: {row}"
        assert re.search(pattern, row["message"]), f"{key}: {row['message']!r} does not match {pattern!r}"


def test_no_check_hangs_every_graded_row_says_how_long_it_took(graded):
    limit = 240 if os.environ.get("WORKBOOK_PROFILE", "full").lower() == "quick" else 480
    for r in graded["rows"]:
        if r["result"] in ("pass", "fail"):
            assert 0 <= float(r["seconds"]) < limit, r
        else:
            assert r["seconds"] == "", r
    # The bad submissions fail at start, before any load: in seconds, not minutes.
    for (learner, exercise), row in {(r["learner"], r["exercise"]): r for r in graded["rows"]}.items():
        if learner in ("answers-500", "crashes-at-start", "crashes-on-request", "syntax-error") and row["result"] == "fail":
            assert float(row["seconds"]) < 30, row


def test_measured_rows_carry_their_ratio_and_the_others_none(graded):
    got = {(r["learner"], r["exercise"]): r for r in graded["rows"]}
    assert float(got[("solver", "04-hot-path")]["ratio"]) >= 3
    assert float(got[("still-slow", "04-hot-path")]["ratio"]) < 3
    assert got[("syntax-error", "04-hot-path")]["ratio"] == ""
    assert got[("never-listens", "04-hot-path")]["ratio"] == ""


def test_no_learner_file_is_modified(graded):
    assert graded["after"] == graded["before"]


def test_the_html_report_shows_every_row(graded):
    html = (graded["out"] / "grades.html").read_text()
    assert html.count("<tr class=") == len(EXPECTED)
    missing = sum(result == "missing" for result, _ in EXPECTED.values())
    skipped = sum(result == "skipped" for result, _ in EXPECTED.values())
    assert (PASSED, CHECKED, missing, skipped) == (1, 22, 38, 2)
    assert f"{PASSED} of {CHECKED} checks passed; {missing} not handed in; {skipped} entries not graded" in html
    assert "<b>01-etag</b>: req/s on /seed/v1, the learner&#x27;s app over the fixed server (apps/etag-fixed)&#x27;s" in html
    assert "<b>02-unblock</b>: how many times lower /cheap&#x27;s p99 latency was than the starting point&#x27;s" in html
    assert "&#x27;./catalog&#x27;" in html, "messages are escaped"


def test_a_check_over_its_hard_timeout_is_stopped_and_leaves_nothing_running(tmp_path, run):
    subs = tmp_path / "subs"
    shutil.copytree(SUBMISSIONS / "still-slow", subs / "slowpoke")
    done, seconds = grade(subs, tmp_path / "out", run, "--only", "04-hot-path", "--timeout", "4")
    rows = list(csv.DictReader(open(tmp_path / "out" / "grades.csv")))
    assert [(r["learner"], r["result"]) for r in rows] == [("slowpoke", "fail")]
    assert "did not finish within 4 s and was stopped" in rows[0]["message"]
    assert seconds < 30
    run.assert_nothing_left()


def test_make_grade_runs_the_grading_script():
    dry = subprocess.run(["make", "-n", "grade", "SUBMISSIONS=some/folder", "GRADES_DIR=out/here"], cwd=ROOT, capture_output=True, text=True)
    assert 'scripts/exercises.py grade "some/folder" --out "out/here"' in dry.stdout, dry.stdout + dry.stderr
