"""Execute every workbook notebook with nbclient, saving into the workbook's results/ as a learner's run
does; fail on any cell error; keep the executed copies in build/executed/ as artefacts; check that
nothing outlives a notebook."""
import time
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
OUT = ROOT / "build" / "executed"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_executes(path, learner_run):
    started = time.time()
    (OUT / path.name).unlink(missing_ok=True)  # never leave test_reading.py an older run's copy to read
    nb = learner_run.execute(path, timeout=1200)
    OUT.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, OUT / path.name)
    learner_run.assert_nothing_left()
    saved = learner_run.results / f"{path.stem}.json"
    assert saved.exists() and saved.stat().st_mtime >= started, "the notebook did not save its results"
