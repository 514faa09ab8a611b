"""Committed notebooks carry no outputs and name the tslab kernel."""
from pathlib import Path

import nbformat
import pytest

from nbtool import problems

ROOT = Path(__file__).resolve().parents[2]
# exercises/<name>/backup-*/ holds a learner's own notebook, saved by make reset-exercise (git-ignored).
NOTEBOOKS = sorted(p for folder in ("notebooks", "exercises", "solutions") for p in (ROOT / folder).rglob("*.ipynb")
                   if ".ipynb_checkpoints" not in p.parts and not any(part.startswith("backup-") for part in p.parts))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_committed_notebook_is_clean(path):
    assert problems(nbformat.read(path, as_version=4)) == []


def test_the_check_catches_outputs_and_other_kernels(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.metadata.kernelspec = {"name": "python3"}
    cell = nbformat.v4.new_code_cell("1 + 1")
    cell.outputs = [nbformat.v4.new_output("execute_result", data={"text/plain": "2"}, execution_count=1)]
    nb.cells.append(cell)
    assert len(problems(nb)) == 2


def test_there_are_notebooks():
    assert any(p.parent.name == "notebooks" for p in NOTEBOOKS)
