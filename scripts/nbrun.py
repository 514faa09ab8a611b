"""Execute notebooks with nbclient and fail on any cell error.

Why not nbmake: tslab sends no `error` output when a cell throws, so nbmake reports a
failing tslab notebook as PASSED. nbclient checks the execute_reply status, which tslab
does set to "error" (tests/notebooks/test_runner.py proves both halves of that).
"""
from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

KERNEL = "tslab"


class NotebookFailed(Exception):
    """A cell failed; the message names the notebook, the cell and the kernel's stderr."""


def execute(path: str | Path, *, timeout: int = 900, env: dict | None = None, allow_errors: bool = False,
            cwd: str | Path | None = None, only: list[int] | None = None) -> nbformat.NotebookNode:
    """Run every cell of the notebook at `path` in a fresh tslab kernel; return the executed copy.

    The notebook on disk is never modified. `env` is added to the kernel's environment. `only`: the
    indices of the cells to run (negative ones count from the end), the others left out of the copy.
    """
    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    if only is not None:
        keep = {i % len(nb.cells) for i in only}
        nb.cells = [c for i, c in enumerate(nb.cells) if i in keep]
    name = nb.metadata.get("kernelspec", {}).get("name")
    if name != KERNEL:
        raise NotebookFailed(f"{path}: kernelspec is {name!r}, expected {KERNEL!r}")
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name=KERNEL,
        allow_errors=allow_errors,
        resources={"metadata": {"path": str(cwd or path.parent)}},
    )
    started = time.monotonic()
    try:
        with _environ(env or {}):
            client.execute()
    except CellExecutionError as err:
        raise NotebookFailed(f"{path} failed after {time.monotonic() - started:.0f} s:\n{err}") from None
    nb.metadata.setdefault("workbook", {})["executed_seconds"] = round(time.monotonic() - started, 1)
    return nb


@contextlib.contextmanager
def kernel(path: str | Path, *, env: dict | None = None, timeout: int = 300):
    """A live tslab kernel for the notebook at `path`, to run cells one by one and look at the
    machine between them. Yields (client, notebook, kernel_pid)."""
    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name=KERNEL, allow_errors=True,
                            resources={"metadata": {"path": str(path.parent)}})
    with _environ(env or {}), client.setup_kernel():
        yield client, nb, client.km.provisioner.process.pid


@contextlib.contextmanager
def _environ(env: dict):
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def failed_cells(nb: nbformat.NotebookNode) -> list[int]:
    """Indexes of cells whose output shows an error (for allow_errors runs)."""
    return [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and any(
        o.get("output_type") == "error" or (o.get("name") == "stderr" and "Error" in o.get("text", ""))
        for o in c.get("outputs", []))]
