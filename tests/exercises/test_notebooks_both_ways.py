"""Integration (make test-integration): each check, both ways, in its notebook. The untouched
exercise's notebook, what a learner opens, runs to the end and prints a friendly FAIL (its check
cell never throws: a failing check is feedback, not a crash); and the solution's check cell, run in
its notebook's kernel after the set-up cell, passes (it throws on a FAIL). The exercise notebook is
generated from the solution's, cell by cell (the generation tests check it): its run loads the same
apps the same way, so they are not loaded twice. These are the only runs of the solutions and the
untouched exercises: through the grading script, without a kernel, test_checks_both_ways.py runs each
check on a half-fix and test_grading.py grades 04 both ways."""
from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.integration
NAMES = sorted(p.parent.name for p in (ROOT / "solutions").glob("*/check.json"))
OUT = ROOT / "build" / "executed" / "exercises"


def check_output(nb) -> str:
    outputs = nb.cells[-1].get("outputs", [])
    return "\n".join(str(o.get("text") or o.get("data", {}).get("text/plain", "")) for o in outputs)


def first_code_cell(name: str) -> int:
    """The solution notebook's set-up cell: its first code cell (imports, the machine line)."""
    nb = nbformat.read(ROOT / "solutions" / name / f"{name}.ipynb", as_version=4)
    return next(i for i, c in enumerate(nb.cells) if c.cell_type == "code")


def save(nb, name: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, OUT / name)


@pytest.mark.parametrize("name", NAMES)
def test_the_solution_passes_its_check(name, run):
    nb = run.execute(ROOT / "solutions" / name / f"{name}.ipynb", timeout=900, only=[first_code_cell(name), -1])
    save(nb, f"solution-{name}.ipynb")
    run.assert_nothing_left()
    text = check_output(nb)
    assert f"PASS: exercise {name}" in text, text
    assert "answers match" in text


@pytest.mark.parametrize("name", NAMES)
def test_the_untouched_exercise_fails_its_check_with_a_friendly_message(name, run):
    nb = run.execute(ROOT / "exercises" / name / f"{name}.ipynb", timeout=900)
    save(nb, f"exercise-{name}.ipynb")
    run.assert_nothing_left()
    text = check_output(nb)
    assert f"FAIL: exercise {name}" in text, text
    assert "the exercise asks for at least" in text and "Hints:" in text, text
    assert "answers match" in text, "the untouched exercise answers like the starting point: it fails on speed alone"
