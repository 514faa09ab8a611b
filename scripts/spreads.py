"""`make spreads`: the measured spread behind every check, from repeated runs of notebooks.

    .venv/bin/python scripts/spreads.py [--runs 6] [--busy-runs 4 | --busy] [--out build/spreads] NOTEBOOK...
    .venv/bin/python scripts/spreads.py --summary [--out build/spreads]
    .venv/bin/python scripts/spreads.py --write [--add] [--out build/spreads] [NOTEBOOK...]
    .venv/bin/python scripts/spreads.py --from CLONE [--out build/spreads]

Executes each notebook `--runs` times on a quiet machine, then `--busy-runs` times beside busy loops
(or, with `--busy`, all `--runs` of them beside busy loops), in the profile of WORKBOOK_PROFILE, one
after the other, and
reads what its checks cell judged: the figures it kept in results/<notebook>.checks.json (a notebook
whose checks cell names it: `wb.checklist("02-event-loop")`), or else the lines it printed
("ok  name: 1.52x (...), at least 1.1x" / "FAILED  ..."). For every check: the value each run
measured, its range, and whether it ever failed. `--busy` runs two busy loops (one per CPU, the
workbook's own priority) for the whole time, as a machine shared with other work would. Every run's
executed copy, its duration and its checks are kept in `--out` (results.jsonl). `--write` then sets
notebooks/spreads.json, the file each checks cell prints its thresholds' spreads from, to every value
recorded in `--out` for each check, by profile and condition (quiet or busy): start a new `--out` to
set a spread from new runs only. With `--add`, the values in `--out` are added to those already in
notebooks/spreads.json (the runs of an earlier `make spreads`, whose `--out` is gone), for checks whose
line has not moved since, measured on the same machine. A run without core pinning (WORKBOOK_PIN=0,
or the portable readings) is kept apart, under "quick-unpinned" or "full-unpinned": the load generator
then shares the servers' cores, and a comparison spreads differently. `--from CLONE` adds to `--out`, as one quiet run of each
notebook, the checks a `make test` in another checkout (a clean clone CI ran) kept in its results/:
every workbook notebook but the one make test runs beside the static tests (BESIDE_STATIC in the
Makefile), which is not quiet. NOTEBOOK is a path (notebooks/02-event-loop.ipynb,
solutions/05-leak/05-leak.ipynb, exercises/...).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from nbrun import NotebookFailed, execute  # noqa: E402

LINE = re.compile(r"^(ok|FAILED)\s+(.*)$")
NUMBER = re.compile(r"-?[\d,]*\.?\d+")
DIGITS = re.compile(r"[\d,]*\.?\d+")  # a number in a check's name; a "-" before it is a range's dash ("0.6-1.6x" -> "#-#x")


def check_line(line: str) -> tuple[bool, str, float | None] | None:
    """(passed, name, value) of one line a checks cell printed, or None for any other line.

    The value is the first number after the sentence's last ": " (the threshold's "; set from ...
    measured" left out, as its own spread may hold a colon). The name is the sentence with that
    value and the limits after it as "#", so the same check gathers under one name in every run.
    """
    m = LINE.match(line)
    if not m:
        return None
    sentence = m.group(2).split("; set from ")[0]
    name, _, rest = sentence.rpartition(": ") if ": " in sentence else (sentence, "", "")
    num = NUMBER.search(rest)
    value = float(num.group().replace(",", "")) if num else None
    return m.group(1) == "ok", f"{name}: {DIGITS.sub('#', rest)}" if rest else name, value


def check_lines_in(text: str) -> list[tuple[bool, str, float | None]]:
    """Every check line in `text` (a cell's output, or the stdout a failed cell's error carries)."""
    return [c for c in map(check_line, text.splitlines()) if c is not None]


def check_lines(nb) -> list[tuple[bool, str, float | None]]:
    """The check lines of every code cell's output."""
    return [c for cell in nb.cells if cell.cell_type == "code" for out in cell.get("outputs", [])
            for c in check_lines_in(str(out.get("text", "")))]


def saved_checks(path: Path, since: float) -> tuple[list[tuple[bool, str, float | None]], str, dict] | None:
    """The checks a notebook's checks cell kept (results/<notebook>.checks.json) in a run that began at
    `since` (a time.time()), with the key their spread is kept under ("quick", "quick-unpinned": the
    profile, and whether the run was pinned) and what else a spread records: the machine, and each check's
    threshold by name; None when it kept none then (a checks cell that names no notebook)."""
    file = ROOT / "results" / f"{path.stem}.checks.json"
    if not file.exists() or file.stat().st_mtime < since:
        return None
    data = json.loads(file.read_text())["data"]
    about = {"machine": data.get("machine"), "limits": {c["name"]: c.get("limit") for c in data["checks"]}}
    return [(c["passed"], c["name"], c["value"]) for c in data["checks"]], data["profile"], about


SPREADS = ROOT / "notebooks" / "spreads.json"


def write_spreads(out: Path, only: list[str], spreads: Path = SPREADS, add: bool = False) -> dict:
    """Set each check's spread in `spreads` (by notebook, check, profile) to every value recorded in
    `out`, quiet and busy, keeping the other notebooks' and profiles' entries; returns the file's content.
    With `add`, the values in `out` are added to the check's recorded ones; a check whose line moved
    since (a different limit), or recorded on another machine, raises SystemExit, naming it and the fix,
    and `spreads` is left as it was."""
    data = json.loads(spreads.read_text()) if spreads.exists() else {}
    data.setdefault("about", "The spread each notebook check's threshold was set from: every value the check "
                    "measured in repeated runs of its notebook (make spreads), by profile, quiet and beside a "
                    "busy loop on every CPU. Each checks cell prints it beside its threshold.")
    books = data.setdefault("notebooks", {})
    fresh: dict[tuple[str, str, str], dict] = {}
    for line in (out / "results.jsonl").read_text().splitlines():
        r = json.loads(line)
        nb = Path(r["notebook"]).stem
        if only and nb not in only:
            continue
        for passed, name, value in r["checks"]:
            if value is None:
                continue
            key = (nb, name, r["profile"])
            if key not in fresh:
                old = books.get(nb, {}).get(name, {}).get(r["profile"]) if add else None
                fresh[key] = {"quiet": [], "busy": [], "measured": ""} if old is None else {
                    **old, "quiet": list(old["quiet"]), "busy": list(old["busy"])}
            entry = fresh[key]
            entry[r["condition"]].append(float(f"{value:.4g}"))  # four significant digits: what a check prints
            entry["measured"] = max(entry["measured"], r["at"][:10])
            # the machine and the threshold of the runs, where the checks cell kept them (the last run's)
            if r.get("machine"):
                if add and entry.get("machine") and entry["machine"] != r["machine"]:
                    raise SystemExit(f"--add: {nb} \"{name}\" was recorded on {entry['machine']} and ran on "
                                     f"{r['machine']}: a spread is one machine's; write it from new runs (--write)")
                entry["machine"] = r["machine"]
            if name in r.get("limits", {}):
                if add and "limit" in entry and entry["limit"] != r["limits"][name]:
                    raise SystemExit(f"--add: {nb} \"{name}\" was recorded with the line {entry['limit']} and "
                                     f"ran with {r['limits'][name]}: measure it again (make spreads NOTEBOOKS=...)")
                entry["limit"] = r["limits"][name]
    for (nb, name, profile), entry in fresh.items():
        books.setdefault(nb, {}).setdefault(name, {})[profile] = entry
    spreads.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return data


def beside_static(clone: Path) -> set[str]:
    """The notebooks make test runs beside the static tests in `clone` (BESIDE_STATIC in its Makefile)."""
    m = re.search(r"^BESIDE_STATIC\s*:?=\s*(.*)$", (clone / "Makefile").read_text(), re.M)
    return set(m.group(1).split()) if m else set()


def import_clone(clone: Path, out: Path) -> list[dict]:
    """Append to out/results.jsonl one quiet run of each workbook notebook whose checks a `make test` in
    `clone` kept (results/<notebook>.checks.json), but those it ran beside the static tests; returns the
    records. A clone with nothing to import raises SystemExit, naming the cause and the fix, and leaves
    `out` as it was (no empty folder)."""
    results = clone / "results"
    if not (clone / "Makefile").is_file() or not results.is_dir():
        raise SystemExit(f"--from {clone}: not a workbook checkout with a results/ folder; "
                         "run make test in that checkout first, then name its folder")
    workbook = {p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb")}
    skipped = beside_static(clone)
    records = []
    for file in sorted(results.glob("*.checks.json")):
        nb = file.name.removesuffix(".checks.json")
        if nb not in workbook or nb in skipped:
            continue
        saved = json.loads(file.read_text())
        data = saved["data"]
        records.append({"notebook": f"notebooks/{nb}.ipynb", "run": 1, "condition": "quiet",
                        "profile": data["profile"], "at": saved["savedAt"][:19], "seconds": None, "error": None,
                        "checks": [[c["passed"], c["name"], c["value"]] for c in data["checks"]],
                        "machine": data.get("machine"), "limits": {c["name"]: c.get("limit") for c in data["checks"]},
                        "from": clone.name})
    if not records:
        raise SystemExit(f"--from {clone}: its results/ holds no notebook's checks (results/NN-*.checks.json); "
                         "run make test in that checkout first")
    out.mkdir(parents=True, exist_ok=True)
    with (out / "results.jsonl").open("a") as log:
        for r in records:
            log.write(json.dumps(r) + "\n")
    return records


def busy_loops() -> list[subprocess.Popen]:
    return [subprocess.Popen(["taskset", "-c", str(cpu), sys.executable, "-c", "while True: pass"])
            for cpu in range(os.cpu_count() or 2)]


def summary(out: Path) -> None:
    """Per notebook and check: the values measured, quiet and busy, their range, and the failures."""
    rows: dict[tuple[str, str], dict[str, list]] = {}
    times: dict[tuple[str, str], list[float]] = {}
    for line in (out / "results.jsonl").read_text().splitlines():
        r = json.loads(line)
        nb = Path(r["notebook"]).stem
        if r["seconds"] is not None:  # None: imported from a clone's make test (--from), not timed here
            times.setdefault((nb, r["condition"]), []).append(r["seconds"])
        if r["error"] and not r["checks"]:
            rows.setdefault((nb, "(the notebook failed before its checks)"), {}).setdefault(r["condition"], []).append(None)
        for passed, name, value in r["checks"]:
            cell = rows.setdefault((nb, name), {}).setdefault(r["condition"], [])
            cell.append(value if passed else f"FAILED {value}")
    fmt = lambda vs: ", ".join("—" if v is None else (v if isinstance(v, str) else f"{v:g}") for v in vs)
    for (nb, name), by in sorted(rows.items()):
        nums = [v for vs in by.values() for v in vs if isinstance(v, float)]
        rng = f"{min(nums):g}-{max(nums):g}" if nums else ""
        print(f"{nb} | {name} | range {rng} | " + " | ".join(f"{c}: {fmt(vs)}" for c, vs in sorted(by.items())))
    for (nb, cond), ts in sorted(times.items()):
        print(f"{nb} {cond}: {len(ts)} runs, {min(ts):.0f}-{max(ts):.0f} s")


def measure(out: Path, notebooks: list[Path], condition: str, runs: int) -> None:
    """Execute each notebook `runs` times in `condition` ("quiet", or "busy": beside a busy loop on every
    CPU), appending each run's checks to out/results.jsonl and keeping its executed copy in `out`."""
    loops = busy_loops() if condition == "busy" else []
    try:
        with (out / "results.jsonl").open("a") as log:
            for path in notebooks:
                for i in range(runs):
                    started = time.monotonic()
                    record = {"notebook": str(path), "run": i + 1, "condition": condition,
                              "profile": os.environ.get("WORKBOOK_PROFILE", "full"), "at": time.strftime("%FT%T")}
                    since = time.time()
                    try:
                        nb = execute(path.resolve(), timeout=1800)
                        record["checks"] = check_lines(nb)
                        record["error"] = None
                    except NotebookFailed as err:
                        # A failed check throws from the checks cell: its lines come with the error.
                        record["checks"], record["error"] = check_lines_in(str(err)), str(err)[-3000:]
                        nb = None
                    saved = saved_checks(path, since)
                    if saved:
                        record["checks"], record["profile"], about = saved
                        record.update(about)
                    record["seconds"] = round(time.monotonic() - started, 1)
                    failed = [c[1] for c in record["checks"] if not c[0]]
                    print(f"{path.stem} run {i + 1} ({condition}): {record['seconds']} s, "
                          f"{len(record['checks'])} checks, failed: {failed or record['error'] and 'ERROR' or 'none'}",
                          flush=True)
                    log.write(json.dumps(record) + "\n")
                    log.flush()
                    if nb is not None:
                        import nbformat
                        nbformat.write(nb, out / f"{path.stem}-{condition}-{i + 1}.ipynb")
    finally:
        for p in loops:
            p.kill()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("notebooks", nargs="*")
    ap.add_argument("--summary", action="store_true")
    ap.add_argument("--write", action="store_true", help="set notebooks/spreads.json from --out")
    ap.add_argument("--add", action="store_true", help="with --write: add to the recorded values")
    ap.add_argument("--runs", type=int, default=6, help="quiet runs of each notebook (with --busy: busy runs)")
    ap.add_argument("--busy-runs", type=int, default=0, help="then this many runs beside busy loops")
    ap.add_argument("--busy", action="store_true", help="every run beside busy loops")
    ap.add_argument("--from", dest="clone", help="add a checkout's make test results as one quiet run")
    ap.add_argument("--out", default=str(ROOT / "build" / "spreads"))
    args = ap.parse_args()
    out = Path(args.out)
    if args.summary:
        summary(out)
        return 0
    if args.clone:
        added = import_clone(Path(args.clone), out)
        print(f"added {len(added)} notebooks' checks from {args.clone} to {out / 'results.jsonl'}")
        return 0
    if args.write:
        write_spreads(out, [Path(n).stem for n in args.notebooks], add=args.add)
        print(f"{'added to' if args.add else 'wrote'} {SPREADS.relative_to(ROOT)} from {out / 'results.jsonl'}")
        return 0
    out.mkdir(parents=True, exist_ok=True)
    plan = [("busy", args.runs)] if args.busy else [("quiet", args.runs), ("busy", args.busy_runs)]
    for condition, runs in plan:
        if runs:
            measure(out, [Path(n) for n in args.notebooks], condition, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
