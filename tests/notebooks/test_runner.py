"""The notebook runner fails on a failing tslab cell (nbmake would not), and nothing outlives
a notebook, even one whose cell throws in the middle of a load test."""
import time
from pathlib import Path

import pytest
from conftest import processes_with

from nbrun import NotebookFailed, failed_cells

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "notebooks"


def test_a_failing_tslab_notebook_fails_the_runner(run):
    with pytest.raises(NotebookFailed, match="deliberate failure in cell 2"):
        run.execute(FIXTURES / "fails.ipynb")
    run.assert_nothing_left()


def test_tslab_sends_no_error_output_which_is_why_nbmake_is_not_used(run):
    nb = run.execute(FIXTURES / "fails.ipynb", allow_errors=True)
    outputs = nb.cells[1].outputs
    assert not any(o.output_type == "error" for o in outputs), "tslab now sends error outputs: nbmake may work again"
    assert failed_cells(nb) == [1]


def test_a_cell_throwing_mid_load_test_stops_its_app_at_once(run):
    with run.kernel(FIXTURES / "throws-mid-load.ipynb") as (client, nb, kernel_pid):
        client.execute_cell(nb.cells[0], 0)
        client.execute_cell(nb.cells[1], 1)
        text = "".join(o.get("text", "") for o in nb.cells[1].outputs)
        assert "deliberate failure in the middle of a load test" in text
        assert "[workbook] the cell failed: stopping 1 process(es) it started" in text
        # The kernel is still alive; the app the failing cell started must already be gone.
        deadline = time.monotonic() + 3
        while (left := [p for p in processes_with(run.marker) if p != kernel_pid]) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert left == [], f"the failed cell's app is still running: {left}"
        assert kernel_pid in processes_with(run.marker)
    run.assert_nothing_left()


def test_an_app_left_running_is_stopped_at_kernel_exit(run):
    run.execute(FIXTURES / "leaves-app-running.ipynb")
    run.assert_nothing_left()
