"""JupyterLab defaults for the workbook, written into the environment JupyterLab runs from.

    python scripts/labsettings.py VENV      (make setup runs it: the lab-settings step)

JupyterLab 4 asks every new user "Would you like to get notified about official Jupyter news?" in a
pop-up (the @jupyterlab/apputils-extension:announcements plugin shows it while the setting
`fetchNews` of @jupyterlab/apputils-extension:notification is "none", its default). The workbook
answers "no" for the learner: `fetchNews` is "false" (and `checkForUpdates` false) in
VENV/share/jupyter/lab/settings/overrides.json, the file JupyterLab reads its defaults from
(<app dir>/settings/overrides.json; the app dir is share/jupyter/lab in the environment it runs from,
so `make lab`'s .venv and Binder's conda env alike). It is a default, not a lock: a learner can still
turn the news on in Settings > Notifications. Other keys already in the file are kept.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

PLUGIN = "@jupyterlab/apputils-extension:notification"
DEFAULTS = {PLUGIN: {"fetchNews": "false", "checkForUpdates": False}}


def overrides_file(venv: Path) -> Path:
    return venv / "share" / "jupyter" / "lab" / "settings" / "overrides.json"


def merged(current: dict, defaults: dict = DEFAULTS) -> dict:
    out = {k: dict(v) if isinstance(v, dict) else v for k, v in current.items()}
    for plugin, values in defaults.items():
        section = out.get(plugin)
        out[plugin] = {**(section if isinstance(section, dict) else {}), **values}
    return out


def write(venv: Path) -> tuple[Path, bool]:
    """Merge the workbook's defaults into the overrides file; (file, whether it changed)."""
    file = overrides_file(venv)
    try:
        current = json.loads(file.read_text()) if file.is_file() else {}
    except json.JSONDecodeError as err:
        raise SystemExit(f"{file} is not valid JSON ({err}): fix or delete it, then run make setup again")
    if not isinstance(current, dict):
        raise SystemExit(f"{file} does not hold a JSON object: fix or delete it, then run make setup again")
    new = merged(current)
    if new == current:
        return file, False
    file.parent.mkdir(parents=True, exist_ok=True)
    tmp = file.with_name(file.name + ".tmp")
    tmp.write_text(json.dumps(new, indent=2) + "\n")
    tmp.replace(file)
    return file, True


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    file, changed = write(Path(argv[1]))
    if changed:
        print(f"JupyterLab: no 'official Jupyter news' pop-up (fetchNews: false in {file})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
