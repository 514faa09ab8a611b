"""The harness's API reference is generated from its doc comments, so it cannot drift from the code.

`make reference` runs TypeDoc (harness/typedoc.json) over the harness's three entries into
build/reference/, and fails on any warning (a broken {@link}, a bad tag). This test runs the same
command, so `make test` builds the reference (test-notebooks-static), and checks that every entry has
its pages.
"""
from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NODE = ROOT / "node_modules" / "node" / "bin" / "node"
TYPEDOC = ROOT / "node_modules" / "typedoc" / "bin" / "typedoc"
OUT = ROOT / "build" / "reference"


def makefile_reference_command() -> str:
    """The command of the Makefile's `reference` target, so that the test runs what make runs."""
    m = re.search(r"^reference:.*\n\t(.+)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert m, "the Makefile has no `reference` target with one command"
    return m.group(1).replace("$(NODE)", str(NODE.relative_to(ROOT)))


def test_the_reference_builds_from_the_doc_comments_without_a_warning():
    command = makefile_reference_command()
    assert "typedoc" in command and "harness/typedoc.json" in command
    started = time.monotonic()
    run = subprocess.run(command, shell=True, cwd=ROOT, capture_output=True, text=True, timeout=120)
    took = time.monotonic() - started
    assert run.returncode == 0, f"TypeDoc failed (a warning counts):\n{run.stdout}\n{run.stderr}"
    assert took < 60, f"the reference took {took:.0f} s to build"
    # One folder per entry: wb. (index.ts), lesson. (internal.ts), ex. (exercises/index.ts).
    pages = {
        "index": ("runLoad", "startApp", "spreadText"),
        "internal": ("microbench", "contention"),
        "exercises": ("checkExercise", "printCheck"),
    }
    for entry, names in pages.items():
        for name in names:
            page = OUT / entry / "functions" / f"{name}.md"
            assert page.is_file(), f"no reference page for {entry}'s {name}: {page}"
            assert page.read_text().strip(), f"{page} is empty"
