"""Exercise tests: reuse the notebook tests' isolated run (a marker on every process, and a check
that nothing outlives a notebook or a grading run)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

_spec = importlib.util.spec_from_file_location("notebook_fixtures", ROOT / "tests" / "notebooks" / "conftest.py")
notebook_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(notebook_fixtures)
Run = notebook_fixtures.Run
processes_with = notebook_fixtures.processes_with

EXERCISES = sorted(p.parent.name for p in (ROOT / "solutions").glob("*/check.json"))


@pytest.fixture
def run(tmp_path):
    return Run(tmp_path / "results")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "integration: runs every check against live apps, end to end (make test-integration, not make test)"
    )
