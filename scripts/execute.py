"""Execute every notebook into an output folder (executed copies are build artefacts).

Usage: python scripts/execute.py notebooks build/executed [NAME ...]
"""
import sys
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).parent))
from nbrun import execute, NotebookFailed  # noqa: E402


def main() -> int:
    src, dest = Path(sys.argv[1]), Path(sys.argv[2])
    only = set(sys.argv[3:])
    dest.mkdir(parents=True, exist_ok=True)
    failures = 0
    for path in sorted(src.glob("[0-9][0-9]-*.ipynb")):
        if only and path.stem not in only and path.name not in only:
            continue
        print(f"executing {path} ...", flush=True)
        try:
            # A full-profile section runs longer than nbclient's default 900 s per cell (notebook 03's
            # sweep: about 20 targets x 5 rounds x 10 s); two hours still stops a cell that hangs.
            nb = execute(path, timeout=2 * 3600)
        except NotebookFailed as err:
            print(err, file=sys.stderr)
            failures += 1
            continue
        nbformat.write(nb, dest / path.name)
        print(f"  -> {dest / path.name} ({nb.metadata['workbook']['executed_seconds']} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
