"""Integration (make test-integration): each exercise's check, both ways, as `make grade` runs it
(scripts/check-exercise.js, one process each, no kernel): the reference solution passes, and the
untouched exercise fails on its ratio alone, its answers matching, with the friendly message and
hints a learner reads. The same checks run in each notebook's kernel, the notebooks end to end, in
tests/exercises/test_notebooks_both_ways.py. Both compare timings of live apps, so neither is in
make test."""
from __future__ import annotations

import json
import os
import subprocess
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
