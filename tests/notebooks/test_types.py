"""Every notebook's code type-checks strictly against the harness, as one module per notebook.

tslab checks each cell as it runs, so a type error surfaces only when a learner reaches the cell. Here
each notebook's code cells are joined into one TypeScript module (top-level await, as tslab allows)
and checked with `strict`: a reading a platform may not give is typed `null`able, so a table or a
sentence that reads one without saying what happens when it is missing fails here, on Linux, before
a Mac learner meets it as a TypeError. Redeclaring a name in a later cell is allowed in a notebook,
so those two errors (TS2451, TS2300) are not counted.
"""
from __future__ import annotations

import json
import re
import subprocess

from conftest import ROOT

NODE = ROOT / "node_modules" / "node" / "bin" / "node"
TSC = ROOT / "node_modules" / "typescript" / "bin" / "tsc"
REDECLARED = re.compile(r"error TS(2451|2300):")
CONFIG = {
    "compilerOptions": {
        "target": "es2022",
        "module": "es2022",
        "moduleResolution": "bundler",
        "strict": True,
        "noEmit": True,
        "skipLibCheck": True,
        "esModuleInterop": True,
        "lib": ["es2023", "dom"],
        "types": ["node"],
    },
    "include": ["*.ts"],
}


def notebook_module(nb: dict) -> str:
    """The notebook's code cells as one module; its own helpers (./NN-name) imported from notebooks/."""
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    code = "\n".join(c for c in cells if not c.lstrip().startswith("%"))
    return "export {};\n" + code.replace('from "./', 'from "../../notebooks/') + "\n"


def errors(out: str) -> list[str]:
    return [line for line in out.splitlines() if "error TS" in line and not REDECLARED.search(line)]


def test_a_null_reading_read_without_a_check_is_a_type_error(tmp_path):
    # The check itself: a LoadResult's server figures are null on a platform that cannot read them.
    d = ROOT / "build" / "types-selftest"
    d.mkdir(parents=True, exist_ok=True)
    (d / "tsconfig.json").write_text(json.dumps(CONFIG))
    (d / "x.ts").write_text(
        'export {};\nimport * as wb from "@workbook/harness";\n'
        "declare const l: wb.LoadResult;\nconsole.log(l.server.cpuPercent.median);\n"
    )
    r = subprocess.run([NODE, TSC, "-p", d], capture_output=True, text=True, cwd=ROOT)
    assert any("TS18047" in e for e in errors(r.stdout)), r.stdout


def test_every_notebook_type_checks_strictly():
    d = ROOT / "build" / "types"
    d.mkdir(parents=True, exist_ok=True)
    for old in d.glob("*.ts"):
        old.unlink()
    (d / "tsconfig.json").write_text(json.dumps(CONFIG))
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        (d / f"{path.stem}.ts").write_text(notebook_module(json.loads(path.read_text())))
    r = subprocess.run([NODE, TSC, "-p", d], capture_output=True, text=True, cwd=ROOT)
    found = errors(r.stdout + r.stderr)
    assert found == [], "\n".join(found) + f"\n(the modules checked are in {d})"


# A platform reading that a `!` would assert present (null where a platform cannot read it).
ASSERTED_READING = re.compile(r"\b(server|cpuPerRequestUs|cpuPercent|rssStartMB|rssPeakMB|threadsPeak|saturatedRuns)!")


def test_no_notebook_asserts_a_platform_reading_present():
    assert ASSERTED_READING.search("l.server!.cpuPercent") and not ASSERTED_READING.search("l.server?.x")
    found = [
        f"{path.name}: {line.strip()}"
        for path in sorted((ROOT / "notebooks").glob("*.ipynb"))
        for line in notebook_module(json.loads(path.read_text())).splitlines()
        if ASSERTED_READING.search(line)
    ]
    assert found == [], "a `!` on a reading this platform may not give:\n" + "\n".join(found)
