"""Exercises: written once in solutions/, generated into exercises/, graded for a class.

    python scripts/exercises.py generate [--out DIR]      solutions/<ex>/ -> DIR/<ex>/ (default exercises/)
    python scripts/exercises.py check                     exit 1 if exercises/ differs from a fresh generation
    python scripts/exercises.py reset EXERCISE            back up the learner's edited app/ files and notebook into
                                                          exercises/EXERCISE/backup-<timestamp>/, then restore the
                                                          starting ones as `generate` writes them (make reset-exercise)
    python scripts/exercises.py grade SUBMISSIONS [--out DIR] [--only EXERCISE] [--timeout SECONDS]
                                                          check every learner's exercises; grades.csv + grades.html,
                                                          rewritten after every row

The command line only: generating, checking and resetting are scripts/generation.py (the markers are
described there), grading a class is scripts/grading.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from generation import EXERCISES, ROOT, MarkerError, ResetError, check, generate, reset  # noqa: E402
from grading import RESULTS, grade  # noqa: E402


def _reset_command(name: str | None, exercises_dir: Path) -> int:
    try:
        done = reset(name, exercises_dir)
    except ResetError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    where = exercises_dir / name
    where = where.relative_to(ROOT) if where.is_relative_to(ROOT) else where
    if done["backup"]:
        print(f"{where}: your files are saved in {where}/{done['backup'].name}/: {', '.join(done['backed_up'])}")
    if done["removed"]:
        print(f"{where}: removed from app/ (they are in the backup): {', '.join(done['removed'])}")
    if done["restored"]:
        print(f"{where}: restored the starting {', '.join(done['restored'])}")
    if not (done["backup"] or done["restored"]):
        print(f"{where}: app/ and the notebook are already the starting files; nothing to do")
    return 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--out", type=Path, default=EXERCISES)
    sub.add_parser("check")
    rs = sub.add_parser("reset", help="restore an exercise's app/ and notebook, backing up the learner's files first")
    rs.add_argument("exercise", nargs="?", help="e.g. 01-etag")
    rs.add_argument("--exercises-dir", type=Path, default=EXERCISES, help="the learner's exercises folder (default exercises/)")
    gr = sub.add_parser("grade")
    gr.add_argument("submissions", type=Path)
    gr.add_argument("--out", type=Path, default=ROOT / "build" / "grades")
    gr.add_argument("--only", help="grade this exercise only")
    gr.add_argument("--timeout", type=int, help="seconds one check may take, all included, before it is stopped (default: 240 quick, 480 full)")
    args = ap.parse_args(argv[1:])
    try:
        if args.cmd == "generate":
            for name in generate(args.out):
                print(f"generated {args.out / name}")
            return 0
        if args.cmd == "check":
            return check()
        if args.cmd == "reset":
            return _reset_command(args.exercise, args.exercises_dir.resolve())
    except MarkerError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if not args.submissions.is_dir():
        print(f"error: {args.submissions} is not a folder of learner submissions", file=sys.stderr)
        return 2
    try:
        rows = grade(args.submissions.resolve(), args.out, args.only, args.timeout)
    except (ValueError, MarkerError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"interrupted: the rows graded so far are in {args.out / 'grades.csv'} and {args.out / 'grades.html'}", file=sys.stderr)
        return 130
    count = {k: sum(r["result"] == k for r in rows) for k in RESULTS}
    print(f"{count['pass']} of {count['pass'] + count['fail']} checks passed, {count['missing']} not handed in, "
          f"{count['skipped']} entries not graded; wrote {args.out / 'grades.csv'} and {args.out / 'grades.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
