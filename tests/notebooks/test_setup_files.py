"""Binder and conda: environment.yml and postBuild agree with requirements.txt and the Makefile's set-up.

Binder builds the conda env from environment.yml, then runs postBuild, which runs `make setup` with
VENV set to that env. So environment.yml must install requirements.txt itself (through pip, `-r`,
never a second list of pins that drifts), with a Python the Makefile accepts, the bootstrap Node that
npm needs, and make; and `make setup VENV=<conda env>` must install into that env, register the kernel
there and write JupyterLab's defaults there. Each rule is checked on the real files and shown failing
on a wrong copy.
"""
from __future__ import annotations

import json
import os
import re
import stat
import subprocess
from pathlib import Path

import pytest
import yaml  # PyYAML: installed with jupyter_server (through jupyter_events), pinned in requirements.txt

ROOT = Path(__file__).resolve().parents[2]
CONDA_DEFAULT = "/srv/conda/envs/notebook"  # where Binder (repo2docker) builds the env from environment.yml


def read(name: str) -> str:
    return (ROOT / name).read_text()


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", text)[:2])


def makefile_python_minimum(makefile: str) -> tuple[int, ...]:
    m = re.search(r"sys\.version_info < \((\d+), (\d+)\)", makefile)
    assert m, "the Makefile no longer states its Python minimum as sys.version_info < (X, Y)"
    return int(m.group(1)), int(m.group(2))


def makefile_python_modules(makefile: str) -> list[str]:
    m = re.search(r'for m in \(([^)]*)\)', makefile)
    assert m, "the Makefile no longer lists the modules its venv must have (VENV_HAS)"
    return re.findall(r'"([\w.-]+)"', m.group(1))


def requirement_names(requirements: str) -> set[str]:
    names = set()
    for line in requirements.splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            names.add(re.split(r"[<>=!~\[; ]", line, maxsplit=1)[0].lower().replace("_", "-"))
    return names


def conda_spec(dep: str) -> tuple[str, str]:
    """'python=3.11' -> ('python', '=3.11'); 'make' -> ('make', '')."""
    m = re.match(r"^\s*([A-Za-z0-9_.-]+)\s*(.*)$", dep)
    return m.group(1).lower(), m.group(2).strip()


def minimum(constraint: str) -> tuple[int, ...] | None:
    """The lowest version a conda constraint allows: '=3.11' / '3.11.*' / '>=3.10' -> (3, 11) / (3, 11) / (3, 10);
    None when it sets no lower bound (no constraint, or only '<')."""
    parts = [p.strip() for p in constraint.split(",") if p.strip()]
    lows = [_version(p) for p in parts if not p.startswith("<") and _version(p)]
    return max(lows) if lows else None


def problems(env_yml: str, post_build: str, requirements: str, makefile: str, node_engine: str,
             apt: str = "wrk\n", ci_run: str = "apt-get install wrk\n") -> list[str]:
    """Every disagreement between the Binder files and the set-up, as a sentence."""
    found = []
    # wrk, the measuring load generator, from the system's packages: Binder's apt.txt, and CI's .ci/run.
    packages = [line.strip() for line in apt.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if "wrk" not in packages:
        found.append("apt.txt does not install wrk (Binder would measure with autocannon)")
    if not re.search(r"apt-get install[^\n]*\bwrk\b", ci_run):
        found.append(".ci/run does not install wrk (CI would measure with autocannon)")
    env = yaml.safe_load(env_yml) or {}
    deps = env.get("dependencies") or []
    conda = dict(conda_spec(d) for d in deps if isinstance(d, str))
    pip_lists = [d["pip"] for d in deps if isinstance(d, dict) and "pip" in d]
    pip = [str(x).strip() for x in ((pip_lists[0] if pip_lists else None) or [])]

    # requirements.txt through pip, and nothing else pinned beside it.
    if not any(re.fullmatch(r"-r\s+(\./)?requirements\.txt", x) for x in pip):
        found.append("environment.yml does not install requirements.txt through pip (`- pip:` with `- -r requirements.txt`)")
    extra = [x for x in pip if not x.startswith("-r")]
    if extra:
        found.append(f"environment.yml pins pip packages beside requirements.txt (they drift apart): {', '.join(extra)}")
    if pip_lists and "pip" not in conda:
        found.append("environment.yml has a pip section but does not install pip")
    both = sorted(requirement_names(requirements) & set(conda))
    if both:
        found.append(f"environment.yml installs from conda what requirements.txt pins: {', '.join(both)}")
    missing_modules = [m for m in makefile_python_modules(makefile) if m.replace("_", "-") not in requirement_names(requirements)]
    if missing_modules:
        found.append(f"requirements.txt lacks what the Makefile's venv check needs: {', '.join(missing_modules)}")

    # Python the Makefile accepts; a bootstrap Node npm accepts; make.
    need = makefile_python_minimum(makefile)
    if "python" not in conda:
        found.append("environment.yml does not pin python")
    else:
        low = minimum(conda["python"])
        if low is None:
            found.append(f"environment.yml's python has no lower bound; the Makefile needs {need[0]}.{need[1]}+")
        elif low < need:
            found.append(f"environment.yml's python {conda['python']} is below the Makefile's minimum {need[0]}.{need[1]}")
    node_need = _version(node_engine)
    if "nodejs" not in conda:
        found.append("environment.yml does not provide nodejs (npm bootstraps the pinned Node)")
    elif (minimum(conda["nodejs"]) or (0,))[:1] < node_need[:1]:
        found.append(f"environment.yml's nodejs {conda['nodejs'] or '(any)'} does not satisfy package.json engines.node {node_engine}")
    if "make" not in conda:
        found.append("environment.yml does not provide make")

    # postBuild: fails on error, runs make setup into the conda env.
    if not post_build.startswith("#!"):
        found.append("postBuild has no #! line")
    if not re.search(r"^\s*set -[a-z]*e", post_build, re.M):
        found.append("postBuild does not stop on the first error (set -e)")
    calls = [line for line in post_build.splitlines() if re.match(r"\s*make\b.*\bsetup\b", line)]
    if not calls:
        found.append("postBuild does not run `make setup`")
    elif not any(re.search(r"\bVENV=[\"']?\$\{?CONDA_PREFIX", c) or f"VENV={CONDA_DEFAULT}" in c for c in calls):
        found.append("postBuild's `make setup` does not set VENV to the conda env ($CONDA_PREFIX)")
    return found


def real() -> dict:
    return {
        "env_yml": read("environment.yml"),
        "post_build": read("postBuild"),
        "requirements": read("requirements.txt"),
        "makefile": read("Makefile"),
        "node_engine": json.loads(read("package.json"))["engines"]["node"],
        "apt": read("apt.txt"),
        "ci_run": read(".ci/run"),
    }


def test_the_binder_files_agree_with_the_set_up():
    assert problems(**real()) == []


WRONG = [
    ("env_yml", lambda s: s.replace("      - -r requirements.txt\n", ""), "does not install requirements.txt through pip"),
    ("env_yml", lambda s: s.replace("- -r requirements.txt", "- jupyterlab==4.0.0"), "pins pip packages beside requirements.txt"),
    ("env_yml", lambda s: s.replace("  - make\n", "  - make\n  - jupyterlab\n"), "installs from conda what requirements.txt pins: jupyterlab"),
    ("env_yml", lambda s: re.sub(r"python=[\d.]+", "python=3.9", s), "python =3.9 is below the Makefile's minimum 3.10"),
    ("env_yml", lambda s: re.sub(r"python=[\d.]+", "python", s), "python has no lower bound"),
    ("env_yml", lambda s: re.sub(r"  - nodejs.*\n", "", s), "does not provide nodejs"),
    ("env_yml", lambda s: re.sub(r"nodejs=\d+", "nodejs=16", s), "nodejs =16 does not satisfy package.json engines.node"),
    ("env_yml", lambda s: s.replace("  - make\n", ""), "does not provide make"),
    ("env_yml", lambda s: s.replace("  - pip\n", ""), "has a pip section but does not install pip"),
    ("post_build", lambda s: re.sub(r'make setup VENV=\S+', "make setup", s), "does not set VENV to the conda env"),
    ("post_build", lambda s: re.sub(r"make setup.*", "make lab", s), "does not run `make setup`"),
    ("post_build", lambda s: s.replace("set -euo pipefail", ""), "does not stop on the first error"),
    ("requirements", lambda s: s.replace("nbclient==", "nbclientx=="), "requirements.txt lacks what the Makefile's venv check needs: nbclient"),
    ("apt", lambda s: s.replace("\nwrk\n", "\n"), "apt.txt does not install wrk"),
    ("ci_run", lambda s: re.sub(r"\bwrk\b", "", s), ".ci/run does not install wrk"),
]


@pytest.mark.parametrize("field, change, message", WRONG, ids=[w[2][:40] for w in WRONG])
def test_a_wrong_copy_fails_with_a_clear_message(field, change, message):
    files = real()
    wrong = change(files[field])
    assert wrong != files[field], f"the mutation did not apply to {field}: update this test"
    found = problems(**{**files, field: wrong})
    assert any(message in p for p in found), found


def test_post_build_is_executable_and_runs_make_setup_into_the_conda_env(tmp_path):
    assert os.stat(ROOT / "postBuild").st_mode & stat.S_IXUSR, "postBuild must be executable (git update-index --chmod=+x)"
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "make").write_text(f'#!/bin/sh\necho "$@" > {tmp_path}/args\n')
    (fake / "make").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"}
    for prefix, venv in (("/opt/conda/envs/workbook", "/opt/conda/envs/workbook"), (None, CONDA_DEFAULT)):
        run_env = {k: v for k, v in env.items() if k != "CONDA_PREFIX"}
        if prefix:
            run_env["CONDA_PREFIX"] = prefix
        done = subprocess.run(["bash", str(ROOT / "postBuild")], cwd=ROOT, env=run_env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "args").read_text().split() == ["setup", f"VENV={venv}"]


def test_make_setup_with_a_conda_env_installs_requirements_registers_the_kernel_and_writes_lab_settings_there():
    env_dir = "/srv/conda/envs/notebook-under-test"
    dry = subprocess.run(["make", "-n", "--no-print-directory", "setup", f"VENV={env_dir}"], cwd=ROOT,
                         capture_output=True, text=True)
    assert dry.returncode == 0, dry.stderr
    out = dry.stdout
    assert f"{env_dir}/bin/python -m pip install --quiet -r requirements.txt" in out
    assert f"scripts/install-kernel.mjs {env_dir}" in out
    assert f"{env_dir}/bin/python scripts/labsettings.py {env_dir}" in out
    # A conda env has no pyvenv.cfg: the set-up never deletes it, it only installs into it.
    assert f"if test -f {env_dir}/pyvenv.cfg" in out


def test_lab_settings_keep_other_keys_and_turn_the_news_off(tmp_path):
    import sys
    sys.path.insert(0, str(ROOT / "scripts"))
    import labsettings

    file = labsettings.overrides_file(tmp_path)
    file.parent.mkdir(parents=True)
    file.write_text(json.dumps({"@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"},
                                labsettings.PLUGIN: {"doNotDisturbMode": True, "fetchNews": "true"}}))
    assert labsettings.write(tmp_path) == (file, True)
    data = json.loads(file.read_text())
    assert data["@jupyterlab/apputils-extension:themes"] == {"theme": "JupyterLab Dark"}
    assert data[labsettings.PLUGIN] == {"doNotDisturbMode": True, "fetchNews": "false", "checkForUpdates": False}
    assert labsettings.write(tmp_path) == (file, False)  # idempotent: nothing rewritten


def test_the_news_setting_is_one_jupyterlab_knows():
    """fetchNews and checkForUpdates exist in this JupyterLab's schema, with "false" a value it accepts."""
    import sys
    sys.path.insert(0, str(ROOT / "scripts"))
    import labsettings

    import jupyterlab
    schemas = [Path(jupyterlab.__file__).parents[3] / "share" / "jupyter" / "lab" / "schemas",
               Path(sys.prefix) / "share" / "jupyter" / "lab" / "schemas"]
    schema_file = next((s / "@jupyterlab" / "apputils-extension" / "notification.json" for s in schemas
                        if (s / "@jupyterlab" / "apputils-extension" / "notification.json").is_file()), None)
    assert schema_file, f"no notification.json schema under {schemas}"
    props = json.loads(schema_file.read_text())["properties"]
    for key, value in labsettings.DEFAULTS[labsettings.PLUGIN].items():
        assert key in props
        if "oneOf" in props[key]:
            assert value in [o["const"] for o in props[key]["oneOf"]]


def devcontainer() -> dict:
    """.devcontainer/devcontainer.json, a JSON with comments: its // lines taken out."""
    text = read(".devcontainer/devcontainer.json")
    return json.loads("\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//")))


def test_the_dev_container_installs_wrk_sets_up_forwards_the_lab_port_and_asks_for_two_cpus():
    c = devcontainer()
    created = c["onCreateCommand"]
    assert "install" in created and " wrk" in created, created
    assert created.rstrip().endswith("make setup"), f"the container must run make setup once created: {created}"
    port = int(re.search(r"^LAB_PORT \?= (\d+)$", read("Makefile"), re.M).group(1))
    assert port in c["forwardPorts"], f"make lab listens on {port}; forwarded: {c['forwardPorts']}"
    assert c["hostRequirements"]["cpus"] >= 2, "one core for the server, one for the load generator"
    assert "--no-browser" in c["containerEnv"]["LAB_ARGS"], "a container has no browser to open"
