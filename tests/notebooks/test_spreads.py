"""make spreads (scripts/spreads.py): reading the lines a checks cell prints, passed or failed."""
from __future__ import annotations

import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import spreads  # noqa: E402

AT_LEAST = ("ok      autocannon's CPU per request over wrk's: 1.44x, at least 1.1x; "
            "set from 1.27-2.09x (12 quick runs: 3 quiet, 2 busy) measured")


def test_a_line_gives_the_value_after_the_name_not_a_number_from_the_spread_it_was_set_from():
    assert spreads.check_line(AT_LEAST) == (True, "autocannon's CPU per request over wrk's: #x, at least #x", 1.44)
    failed = spreads.check_line(AT_LEAST.replace("ok   ", "FAILED").replace("1.44x", "1.27x"))
    assert failed == (False, "autocannon's CPU per request over wrk's: #x, at least #x", 1.27)
    assert spreads.check_line("the harness loads in 0.6 s") is None


def test_two_checks_on_one_load_keep_their_own_names():
    little = spreads.check_line("ok      hello-http /: Little's law 1.01x, in 0.6-1.6x")
    cpu = spreads.check_line("ok      hello-http /: the server's CPU time per request read")
    assert little == (True, "hello-http /: Little's law #x, in #-#x", 1.01)
    assert cpu == (True, "hello-http /: the server's CPU time per request read", None)
    assert spreads.check_line("ok      every app has stopped (0 still running)") == (
        True, "every app has stopped (0 still running)", None)
    assert spreads.check_line("ok      the bare run answered cleanly: 157,340 requests, 0 errors")[2] == 157340


def test_a_failed_checks_cell_still_gives_its_lines_from_the_error_it_raised():
    # what nbrun.NotebookFailed carries when checks.done() throws: the cell's stdout, then its stderr
    error = ("notebooks/00.ipynb failed after 33 s:\n----- stdout -----\nok      10 loads answered cleanly\n"
             f"{AT_LEAST.replace('ok   ', 'FAILED').replace('1.44x', '1.27x')}\n----- stderr -----\n"
             "Error: 1 check(s) failed:\n")
    assert [(c[0], c[2]) for c in spreads.check_lines_in(error)] == [(True, None), (False, 1.27)]


def test_the_lines_of_an_executed_notebook_are_read_from_every_code_cell():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("ok      not output"), nbformat.v4.new_code_cell("checks.done()")]
    nb.cells[1].outputs = [nbformat.v4.new_output("stream", name="stdout", text=f"{AT_LEAST}\n")]
    assert spreads.check_lines(nb) == [spreads.check_line(AT_LEAST)]
