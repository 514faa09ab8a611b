"""Execute every workbook notebook with nbclient; fail on any cell error; keep the executed
copies in build/executed/ as artefacts; check that nothing outlives a notebook."""
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
OUT = ROOT / "build" / "executed"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_executes(path, run):
    nb = run.execute(path, timeout=1200)
    OUT.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, OUT / path.name)
    run.assert_nothing_left()
    assert (run.results / f"{path.stem}.json").exists(), "the notebook did not save its results"
