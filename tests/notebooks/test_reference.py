"""The harness's API reference is generated from its doc comments, so it cannot drift from the code.

`make reference` runs TypeDoc (harness/typedoc.json) over the harness's three entries into
build/reference/, then over the tools' entry (tools/typedoc.json) into build/reference/tools/, and
fails on any warning (a broken {@link}, a bad tag). This test runs the same command, so `make test` builds the reference (test-notebooks-static), and checks that every entry has
its pages. harness/README.md stays the map (under 500 lines, shown failing on a longer copy), and every
link to a heading of harness/README.md or harness/METHOD.md resolves.
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
    assert "typedoc" in command and "harness/typedoc.json" in command and "tools/typedoc.json" in command
    started = time.monotonic()
    run = subprocess.run(command, shell=True, cwd=ROOT, capture_output=True, text=True, timeout=120)
    took = time.monotonic() - started
    assert run.returncode == 0, f"TypeDoc failed (a warning counts):\n{run.stdout}\n{run.stderr}"
    assert took < 60, f"the reference took {took:.0f} s to build"
    # One folder per entry: wb. (index.ts), internal.ts (the tools' and tests'), ex. (exercises/index.ts).
    pages = {
        "index": ("runLoad", "withApp", "spreadText", "contentionRounds"),
        "internal": ("startApp", "pacedLoad"),
        "exercises": ("checkExercise", "printCheck"),
        "tools": ("diagnose", "compare"),  # @workbook/tools (tools/typedoc.json), after the harness's
    }
    for entry, names in pages.items():
        for name in names:
            page = OUT / entry / "functions" / f"{name}.md"
            assert page.is_file(), f"no reference page for {entry}'s {name}: {page}"
            assert page.read_text().strip(), f"{page} is empty"


# harness/README.md is the map, not the reference: it stays under this many lines.
README_MAX_LINES = 500


def readme_problems(text: str) -> list[str]:
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if lines >= README_MAX_LINES:
        return [
            f"harness/README.md has {lines} lines (under {README_MAX_LINES}): it is the map; "
            "per-function text belongs in the doc comments (make reference), the method in harness/METHOD.md"
        ]
    return []


def test_harness_readme_stays_a_map_under_500_lines():
    assert readme_problems((ROOT / "harness" / "README.md").read_text()) == []


def test_a_readme_of_500_lines_or_more_fails_and_499_passes():
    assert readme_problems("line\n" * 499) == []
    assert readme_problems("line\n" * 500)
    assert "501 lines" in readme_problems("line\n" * 501)[0]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation but - and _ dropped, spaces to -."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    found: set[str] = set()
    in_code = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            base = slug(line.lstrip("#"))
            name, n = base, 1
            while name in found:
                name, n = f"{base}-{n}", n + 1
            found.add(name)
    return found


def test_every_link_to_an_anchor_of_the_harness_docs_resolves():
    docs = {name: anchors((ROOT / "harness" / name).read_text()) for name in ("README.md", "METHOD.md")}
    broken = []
    for source in [ROOT / "README.md", *(ROOT / "harness").glob("*.md"), *(ROOT / "docs").rglob("*.md")]:
        text = source.read_text()
        for target, anchor in re.findall(r"(?:harness/)?(README\.md|METHOD\.md)?#([\w\-]+)\)", text):
            if source.parent == ROOT / "harness":
                doc = target or source.name
            elif target:
                # From outside harness/, only links into harness/ are this test's business.
                if not re.search(rf"harness/{re.escape(target)}#{re.escape(anchor)}\)", text):
                    continue
                doc = target
            else:
                continue
            if anchor not in docs[doc]:
                broken.append(f"{source.relative_to(ROOT)}: {doc}#{anchor}")
    assert broken == [], f"links to headings that do not exist: {broken}"
