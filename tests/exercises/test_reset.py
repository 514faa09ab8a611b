"""make reset-exercise: the learner's edited files are backed up before the starting ones come back,
in a temporary copy of the exercises (the committed exercises/ is never touched)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import generation as ex  # noqa: E402

EDIT = "// my attempt: a cache that never expires\n"


@pytest.fixture
def learner(tmp_path):
    """A learner's exercises folder, freshly generated, as `make exercises` writes it."""
    out = tmp_path / "exercises"
    ex.generate(out)
    return out


def reset_cli(*args: str, cwd=ROOT):
    return subprocess.run([sys.executable, "scripts/exercises.py", "reset", *args], cwd=cwd, capture_output=True, text=True)


def test_reset_backs_up_the_edited_app_file_and_restores_the_starting_one(learner):
    app = learner / "01-etag" / "app" / "server.js"
    start = app.read_text()
    app.write_text(start + EDIT)
    (learner / "01-etag" / "app" / "cache.js").write_text("module.exports = new Map()\n")  # a file the learner added

    done = reset_cli("01-etag", "--exercises-dir", str(learner))
    assert done.returncode == 0, done.stderr

    assert app.read_text() == start  # the starting file, as generated
    assert not (learner / "01-etag" / "app" / "cache.js").exists()
    backups = sorted((learner / "01-etag").glob("backup-*"))
    assert len(backups) == 1, backups
    assert (backups[0] / "app" / "server.js").read_text() == start + EDIT  # the learner's work, kept
    assert (backups[0] / "app" / "cache.js").read_text() == "module.exports = new Map()\n"
    assert sorted(p.relative_to(backups[0]).as_posix() for p in backups[0].rglob("*") if p.is_file()) == \
        ["app/cache.js", "app/server.js"]  # unchanged files are not copied
    assert f"01-etag/{backups[0].name}/" in done.stdout and "app/server.js" in done.stdout, done.stdout


def test_the_notebook_is_restored_too_and_a_second_backup_never_overwrites_the_first(learner):
    nb = learner / "02-unblock" / "02-unblock.ipynb"
    start = nb.read_text()
    nb.write_text(start.replace('"cells": [', '"cells": [{"cell_type": "markdown", "id": "mine", "metadata": {}, "source": "my notes"},', 1))
    first = ex.reset("02-unblock", learner, stamp="20261125-120000")
    assert first["backed_up"] == ["02-unblock.ipynb"] and nb.read_text() == start
    assert "my notes" in (first["backup"] / "02-unblock.ipynb").read_text()

    nb.write_text(start + " ")
    second = ex.reset("02-unblock", learner, stamp="20261125-120000")  # the same second
    assert second["backup"] != first["backup"] and second["backup"].name == "backup-20261125-120000-2"
    assert "my notes" in (first["backup"] / "02-unblock.ipynb").read_text()


def test_nothing_to_do_makes_no_backup(learner):
    done = ex.reset("04-hot-path", learner)
    assert done == {"backup": None, "backed_up": [], "restored": [], "removed": []}
    assert not list((learner / "04-hot-path").glob("backup-*"))


def test_a_deleted_app_file_comes_back(learner, tmp_path):
    catalogue = learner / "04-hot-path" / "app" / "catalogue.js"
    catalogue.unlink()
    done = ex.reset("04-hot-path", learner)
    assert done["restored"] == ["app/catalogue.js"] and done["backup"] is None
    ex.generate(tmp_path / "fresh")
    assert catalogue.read_text() == (tmp_path / "fresh" / "04-hot-path" / "app" / "catalogue.js").read_text()


@pytest.mark.parametrize("args, message", [
    ((), "which exercise? usage: make reset-exercise EXERCISE=<name>, one of: 01-etag, 02-unblock"),
    (("01-etga",), "no exercise named '01-etga'; the exercises are: 01-etag, 02-unblock, 03-faster-framework, 04-hot-path"),
])
def test_a_missing_or_unknown_exercise_is_refused_with_the_list(args, message, learner):
    before = {p: p.read_bytes() for p in learner.rglob("*") if p.is_file()}
    done = reset_cli(*args, "--exercises-dir", str(learner))
    assert done.returncode == 2
    assert message in done.stderr
    assert {p: p.read_bytes() for p in learner.rglob("*") if p.is_file()} == before


def test_make_reset_exercise_without_exercise_refuses(tmp_path):
    done = subprocess.run(["make", "--no-print-directory", "reset-exercise"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode != 0
    assert "usage: make reset-exercise EXERCISE=<name>" in done.stderr


def test_backups_survive_regeneration_and_do_not_count_as_differences(learner, tmp_path):
    app = learner / "01-etag" / "app" / "server.js"
    app.write_text(app.read_text() + EDIT)
    done = ex.reset("01-etag", learner)
    ex.generate(learner)  # make exercises on a learner's machine
    assert (done["backup"] / "app" / "server.js").read_text().endswith(EDIT)
    fresh = tmp_path / "fresh"
    ex.generate(fresh)
    assert ex.differences(learner, fresh) == []
