"""Notebooks that read like lessons: every code cell is one short step. For each notebook in
notebooks/: the median code cell at most 10 lines, none over 25, no line over 110 characters (the
HTML export cuts longer ones off), no nested ternary (a sentence that depends on the run belongs
in a tested helper of the harness, not in a chain of ?: in a cell), and no shorthand property naming an
earlier cell's variable (tslab leaves `{ first }` unrewritten: a ReferenceError when the cell runs). Measured by
scripts/notebook-cells.js, which parses each cell with TypeScript."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE = ROOT / "node_modules" / "node" / "bin" / "node"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
AIMS = {"median": 10, "longest": 25, "line": 110}


def shape(*paths: Path) -> list[dict]:
    out = subprocess.run([str(NODE), str(ROOT / "scripts" / "notebook-cells.js"), "--max-line", str(AIMS["line"]), *map(str, paths)],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    return [json.loads(line) for line in out.stdout.splitlines()]


def problems(s: dict) -> list[str]:
    found = []
    if s["medianLines"] > AIMS["median"]:
        found.append(f"median code cell {s['medianLines']} lines (aim: at most {AIMS['median']})")
    if s["longestLines"] > AIMS["longest"]:
        found.append(f"cell {s['longestCell']} has {s['longestLines']} lines (aim: at most {AIMS['longest']})")
    found += [f"cell {x['cell']}: a line of {x['length']} characters: {x['line']}" for x in s["longLines"]]
    found += [f"cell {x['cell']}: a nested ternary: {x['text']}" for x in s["nested"]]
    found += [f"cell {x['cell']}: {{ {x['name']} }} names an earlier cell's variable; tslab needs {{ {x['name']}: {x['name']} }}"
              for x in s["shorthand"]]
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_code_cell_is_one_short_step(path):
    [s] = shape(path)
    assert problems(s) == [], "\n".join(problems(s))


def test_the_check_fails_on_a_long_cell_a_long_line_and_a_nested_ternary(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("const a = 1;") for _ in range(3)] + [
        nbformat.v4.new_code_cell("\n".join(f"const x{i} = {i};" for i in range(30))),
        nbformat.v4.new_code_cell("const long = '" + "x" * 120 + "';"),
        nbformat.v4.new_code_cell("const s = a > 1 ? 'big' : a < 0 ? 'negative' : 'small';"),
        nbformat.v4.new_code_cell("const b = 2;\nconsole.log({ a, b, c: a });"),
    ]
    bad = tmp_path / "99-bad.ipynb"
    nbformat.write(nb, bad)
    found = problems(shape(bad)[0])
    assert any("has 30 lines (aim: at most 25)" in p for p in found), found
    assert any("a line of 136 characters" in p for p in found), found
    assert any("a nested ternary: a < 0 ? 'negative'" in p for p in found), found
    assert [p for p in found if "earlier cell" in p] == [
        "cell 6: { a } names an earlier cell's variable; tslab needs { a: a }"], found
