"""Build and clean workbook notebooks.

    python scripts/nbtool.py strip FILE...   remove outputs and execution counts in place
    python scripts/nbtool.py check FILE...   exit 1 if any notebook carries outputs or another kernel

Notebooks are committed without outputs; executed copies are build artefacts.
"""
from __future__ import annotations

import sys

import nbformat

KERNELSPEC = {"name": "tslab", "display_name": "TypeScript (workbook, Node 26)", "language": "typescript"}
LANGUAGE_INFO = {"name": "typescript", "file_extension": ".ts", "mimetype": "text/typescript"}


def new_notebook(cells: list[tuple[str, str]]) -> nbformat.NotebookNode:
    """cells: ("md" | "code", source) pairs."""
    nb = nbformat.v4.new_notebook()
    nb.metadata.kernelspec = dict(KERNELSPEC)
    nb.metadata.language_info = dict(LANGUAGE_INFO)
    for kind, source in cells:
        src = source.strip("\n")
        nb.cells.append(nbformat.v4.new_markdown_cell(src) if kind == "md" else nbformat.v4.new_code_cell(src))
    return strip(nb)


def strip(nb: nbformat.NotebookNode, renumber: bool = True) -> nbformat.NotebookNode:
    """Outputs and execution counts removed; cell ids renumbered cell-00, cell-01 ... (a generated
    notebook), or, with renumber=False, kept as they are and given only where missing (make strip: an
    edited notebook's diff shows only what was edited)."""
    for i, cell in enumerate(nb.cells):
        if renumber or not cell.get("id"):
            cell.id = f"cell-{i:02d}"
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        cell.metadata = {k: v for k, v in cell.metadata.items() if k in ("tags",)}
    nb.metadata.pop("workbook", None)
    return nb


def problems(nb: nbformat.NotebookNode) -> list[str]:
    found = []
    if nb.metadata.get("kernelspec", {}).get("name") != "tslab":
        found.append(f"kernelspec is {nb.metadata.get('kernelspec', {}).get('name')!r}, not 'tslab'")
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and (cell.get("outputs") or cell.get("execution_count") is not None):
            found.append(f"cell {i} carries outputs or an execution count")
    return found


def main(argv: list[str]) -> int:
    cmd, files = argv[1], argv[2:]
    bad = 0
    for f in files:
        nb = nbformat.read(f, as_version=4)
        if cmd == "strip":
            nbformat.write(strip(nb, renumber=False), f)
        elif cmd == "check":
            for p in problems(nb):
                print(f"{f}: {p}")
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
