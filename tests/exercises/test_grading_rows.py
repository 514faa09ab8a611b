"""The grader's bookkeeping, without running any check (grade_one is replaced): one row per learner
and exercise, "missing" for an exercise not handed in, "skipped" for anything that is not an
exercise, and reports rewritten after every row, so an interrupted run keeps what it graded."""
from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import generation  # noqa: E402
import grading  # noqa: E402


def rows(out: Path) -> list[dict]:
    with open(out / "grades.csv") as f:
        return list(csv.DictReader(f))


@pytest.fixture
def submissions(tmp_path):
    subs = tmp_path / "subs"
    (subs / "ada" / "04-hot-path" / "app").mkdir(parents=True)
    (subs / "ada" / "04-hot-path" / "app" / "server.js").write_text("// ada's\n")
    (subs / "ada" / "hotpath").mkdir()
    (subs / "ada" / "notes.txt").write_text("my notes\n")
    (subs / "grace" / "01-etag" / "app").mkdir(parents=True)
    (subs / "grace" / "01-etag" / "app" / "server.js").write_text("// grace's\n")
    (subs / "linus.zip").write_text("not a folder\n")
    (subs / ".DS_Store").write_text("")
    return subs


def test_every_learner_gets_a_row_per_exercise_and_strays_are_reported(submissions, tmp_path, monkeypatch):
    graded = []
    monkeypatch.setattr(grading, "grade_one", lambda learner_ex, exercise, timeout: graded.append(learner_ex.name) or
                        {"pass": True, "ratio": 2.5, "message": "ok"})
    grading.grade(submissions, tmp_path / "out")
    got = {(r["learner"], r["exercise"]): r for r in rows(tmp_path / "out")}
    names = generation.solution_dirs()
    assert len(names) >= 4
    assert graded == ["04-hot-path", "01-etag"]
    for learner in ("ada", "grace"):
        for sol in names:
            assert (learner, sol.name) in got, (learner, sol.name)
    assert got[("ada", "04-hot-path")]["result"] == "pass" and got[("ada", "04-hot-path")]["ratio"] == "2.50"
    assert got[("ada", "01-etag")]["result"] == "missing"
    assert got[("ada", "01-etag")]["message"] == "not handed in: no 01-etag/ folder in ada/"
    assert got[("ada", "hotpath")]["result"] == "skipped" and "a folder that is not an exercise" in got[("ada", "hotpath")]["message"]
    assert got[("ada", "notes.txt")]["result"] == "skipped" and "a file that is not an exercise" in got[("ada", "notes.txt")]["message"]
    assert got[("linus.zip", "")]["result"] == "skipped" and "unpack linus.zip" in got[("linus.zip", "")]["message"]
    assert not any(learner == ".DS_Store" for learner, _ in got)
    html = (tmp_path / "out" / "grades.html").read_text()
    assert "2 of 2 checks passed" in html and f"{2 * len(names) - 2} not handed in; 3 entries not graded" in html


def test_only_grades_one_exercise_and_names_an_unknown_one(submissions, tmp_path, monkeypatch):
    monkeypatch.setattr(grading, "grade_one", lambda *a: {"pass": False, "ratio": 0.9, "message": "slow"})
    grading.grade(submissions, tmp_path / "out", only="04-hot-path")
    got = [(r["learner"], r["exercise"], r["result"]) for r in rows(tmp_path / "out") if r["result"] != "skipped"]
    assert got == [("ada", "04-hot-path", "fail"), ("grace", "04-hot-path", "missing")]
    done = subprocess.run([sys.executable, "scripts/exercises.py", "grade", str(submissions), "--out", str(tmp_path / "o2"),
                           "--only", "hot-path"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and "--only hot-path: no such exercise (expected one of: 01-etag" in done.stderr


def test_the_reports_are_written_after_every_row_so_an_interrupted_run_keeps_them(submissions, tmp_path, monkeypatch):
    calls = []

    def grade_one(learner_ex, exercise, timeout):
        calls.append(learner_ex)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return {"pass": True, "ratio": 3.1, "message": "graded before the interruption"}
    monkeypatch.setattr(grading, "grade_one", grade_one)
    with pytest.raises(KeyboardInterrupt):
        grading.grade(submissions, tmp_path / "out")
    kept = rows(tmp_path / "out")
    assert ("ada", "04-hot-path", "pass") in [(r["learner"], r["exercise"], r["result"]) for r in kept]
    assert "graded before the interruption" in (tmp_path / "out" / "grades.html").read_text()
    assert not list((tmp_path / "out").glob("*.tmp")), "reports are replaced whole"
