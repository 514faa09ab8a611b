"""make spreads (scripts/spreads.py): reading the lines a checks cell prints, passed or failed."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
import pytest

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


def test_write_sets_each_checks_spread_by_profile_and_condition_and_keeps_the_others(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    rec = lambda nb, cond, profile, checks: json.dumps({"notebook": f"notebooks/{nb}.ipynb", "run": 1, "condition": cond,
                                                        "profile": profile, "at": "2026-11-28T10:00:00", "checks": checks})
    pool = "blocked p99 over loop-worker-pool's"
    (out / "results.jsonl").write_text("\n".join([
        rec("02-event-loop", "quiet", "quick", [[True, pool, 20.8], [True, "both shedding apps answered 503", None]]),
        rec("02-event-loop", "busy", "quick", [[False, pool, 1.5]]),
        rec("00-getting-started", "quiet", "quick", [[True, "growth", 2.0]]),
    ]) + "\n")
    spreads_file = tmp_path / "spreads.json"
    spreads_file.write_text(json.dumps({"about": "x", "notebooks": {
        "02-event-loop": {pool: {"full": {"quiet": [9.0], "busy": [], "measured": "2026-11-01"}}},
        "05-micro": {"gain": {"quick": {"quiet": [3.0], "busy": [], "measured": "2026-11-01"}}}}}))
    data = spreads.write_spreads(out, ["02-event-loop"], spreads_file)
    assert data["notebooks"]["02-event-loop"][pool] == {
        "full": {"quiet": [9.0], "busy": [], "measured": "2026-11-01"},
        "quick": {"quiet": [20.8], "busy": [1.5], "measured": "2026-11-28"}}
    assert "both shedding apps answered 503" not in data["notebooks"]["02-event-loop"], "a check without a figure has no spread"
    assert "00-getting-started" not in data["notebooks"], "only the notebooks named"
    assert data["notebooks"]["05-micro"]["gain"]["quick"]["quiet"] == [3.0]
    assert json.loads(spreads_file.read_text()) == data


def test_write_keeps_the_machine_and_the_threshold_a_checks_cell_recorded(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    record = {"notebook": "notebooks/07-every-core.ipynb", "run": 1, "condition": "busy", "profile": "quick",
              "at": "2026-12-04T10:00:00", "checks": [[True, "RSS of 2 workers over 1", 1.56]],
              "machine": "Intel(R) Xeon(R) Processor, 2 cores", "limits": {"RSS of 2 workers over 1": 1.3}}
    (out / "results.jsonl").write_text(json.dumps(record) + "\n")
    data = spreads.write_spreads(out, [], tmp_path / "spreads.json")
    assert data["notebooks"]["07-every-core"]["RSS of 2 workers over 1"]["quick"] == {
        "quiet": [], "busy": [1.56], "measured": "2026-12-04", "machine": "Intel(R) Xeon(R) Processor, 2 cores",
        "limit": 1.3}


def test_from_a_clone_adds_one_quiet_run_of_each_notebook_but_the_one_beside_the_static_tests(tmp_path):
    clone = tmp_path / "clone"
    (clone / "results").mkdir(parents=True)
    (clone / "Makefile").write_text("X := 1\nBESIDE_STATIC := 04-memory\n")
    kept = lambda nb, value: json.dumps({"notebook": f"{nb}.checks", "savedAt": "2026-12-05T16:00:00.000Z", "data": {
        "profile": "quick", "machine": "m, 2 cores",
        "checks": [{"name": "growth", "kind": "atLeast", "value": value, "limit": 1, "unit": "x", "passed": True}]}})
    (clone / "results" / "00-getting-started.checks.json").write_text(kept("00-getting-started", 2.5))
    (clone / "results" / "04-memory.checks.json").write_text(kept("04-memory", 9.0))  # beside the static tests
    (clone / "results" / "05-leak.checks.json").write_text(kept("05-leak", 7.0))  # an exercise's, not the workbook's
    out = tmp_path / "out"
    added = spreads.import_clone(clone, out)
    assert [(r["notebook"], r["condition"], r["checks"], r["limits"]) for r in added] == [
        ("notebooks/00-getting-started.ipynb", "quiet", [[True, "growth", 2.5]], {"growth": 1})]
    data = spreads.write_spreads(out, [], tmp_path / "spreads.json")
    assert data["notebooks"]["00-getting-started"]["growth"]["quick"] == {
        "quiet": [2.5], "busy": [], "measured": "2026-12-05", "machine": "m, 2 cores", "limit": 1}


def test_from_a_folder_without_results_names_the_fix_and_makes_no_folder(tmp_path):
    out = tmp_path / "out"
    for bad in (tmp_path / "nowhere", tmp_path):
        try:
            spreads.import_clone(bad, out)
        except SystemExit as e:
            assert "run make test in that checkout first" in str(e)
        else:
            raise AssertionError(f"{bad} imported")
    assert not out.exists()


def test_write_with_add_adds_to_the_recorded_values_and_refuses_a_moved_line_or_another_machine(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    run = lambda value, limit, machine="m, 2 cores": json.dumps({
        "notebook": "notebooks/08-is-it-faster.ipynb", "run": 1, "condition": "quiet", "profile": "quick",
        "at": "2026-12-06T01:30:00", "checks": [[True, "req/s", value]], "machine": machine,
        "limits": {"req/s": limit}})
    recorded = {"quiet": [9.5], "busy": [10.2, 9.8], "measured": "2026-12-05", "machine": "m, 2 cores", "limit": 1.5}
    spreads_file = tmp_path / "spreads.json"
    spreads_file.write_text(json.dumps({"about": "x", "notebooks": {"08-is-it-faster": {"req/s": {"quick": recorded}}}}))
    (out / "results.jsonl").write_text(run(11.0, 1.5) + "\n" + run(10.5, 1.5) + "\n")
    data = spreads.write_spreads(out, [], spreads_file, add=True)
    assert data["notebooks"]["08-is-it-faster"]["req/s"]["quick"] == {**recorded, "quiet": [9.5, 11.0, 10.5],
                                                                       "measured": "2026-12-06"}
    assert spreads.write_spreads(out, [], tmp_path / "new.json")["notebooks"]["08-is-it-faster"]["req/s"]["quick"][
        "quiet"] == [11.0, 10.5], "without add, the runs in --out only"
    before = spreads_file.read_text()
    (out / "results.jsonl").write_text(run(11.0, 2) + "\n")
    with pytest.raises(SystemExit, match=r'08-is-it-faster "req/s" was recorded with the line 1.5 and ran with 2'):
        spreads.write_spreads(out, [], spreads_file, add=True)
    assert spreads_file.read_text() == before
    (out / "results.jsonl").write_text(run(11.0, 1.5, "a 64-core box") + "\n")
    with pytest.raises(SystemExit, match=r'"req/s" was recorded on m, 2 cores and ran on a 64-core box'):
        spreads.write_spreads(out, [], spreads_file, add=True)
    assert spreads_file.read_text() == before
