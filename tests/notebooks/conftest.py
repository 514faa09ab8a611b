"""Shared fixtures: execute notebooks with nbclient and prove nothing outlives them."""
from __future__ import annotations

import os
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from nbrun import execute, kernel  # noqa: E402


def processes_with(marker: str) -> list[int]:
    """Pids whose environment carries WORKBOOK_RUN_ID=marker (kernel, apps, their children)."""
    needle = f"WORKBOOK_RUN_ID={marker}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def listening_ports() -> dict[int, int]:
    """Listening TCP port -> socket inode."""
    ports = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == "0A":  # LISTEN
                ports[int(fields[1].rsplit(":", 1)[1], 16)] = int(fields[9])
    return ports


def socket_owners(inodes: set[int]) -> dict[int, int]:
    """Socket inode -> pid of a process holding it (where /proc lets us see)."""
    owners = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            for fd in (entry / "fd").iterdir():
                link = os.readlink(fd)
                if link.startswith("socket:[") and int(link[8:-1]) in inodes:
                    owners[int(link[8:-1])] = int(entry.name)
        except OSError:
            continue
    return owners


class Run:
    """One isolated notebook execution, tagged so its processes can be found afterwards."""

    def __init__(self, results: Path):
        self.marker = uuid.uuid4().hex
        self.results = results
        self.ports_before = listening_ports()

    def execute(self, path: Path, **kw):
        env = {"WORKBOOK_RUN_ID": self.marker, "WORKBOOK_RESULTS_DIR": str(self.results), **kw.pop("env", {})}
        return execute(path, env=env, **kw)

    def kernel(self, path: Path):
        return kernel(path, env={"WORKBOOK_RUN_ID": self.marker, "WORKBOOK_RESULTS_DIR": str(self.results)})

    def assert_nothing_left(self, grace: float = 5.0) -> None:
        deadline = time.monotonic() + grace
        while (left := processes_with(self.marker)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not left, f"processes outlived the notebook: {left}"
        # A port opened since the run began is ours unless a process outside this run holds it
        # (on a developer's machine other servers come and go; in make test the unit tests run beside
        # the runner's own tests).
        new = {port: inode for port, inode in listening_ports().items() if port not in self.ports_before}
        owners = socket_owners(set(new.values()))
        # Looked at again after the owners: a port another process (a unit test running beside this
        # one) closed between the two reads has no owner left, and is not ours either.
        still = listening_ports()
        ours = sorted(port for port, inode in new.items() if still.get(port) == inode
                      and (inode not in owners or self.marker_of(owners[inode])))
        assert not ours, f"ports still listening after the notebook: {ours}"

    def marker_of(self, pid: int) -> bool:
        return pid in processes_with(self.marker)


@pytest.fixture
def run(tmp_path):
    return Run(tmp_path / "results")


@pytest.fixture
def learner_run():
    """A run that saves into the workbook's own results/, as a learner's does: every path the executed
    notebook prints (a report, a profile, a command's folder) is then one a reader of it can open."""
    return Run(ROOT / "results")
