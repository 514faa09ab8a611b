# Learner comforts (docs/instructors.md; make help).
#   make setup          also writes JupyterLab's defaults: no "official Jupyter news" pop-up (scripts/labsettings.py)
#   make reset-exercise EXERCISE=01-etag
#                       back up the learner's edited app/ files and notebook into
#                       exercises/<name>/backup-<timestamp>/, then restore the starting ones
.PHONY: lab-settings reset-exercise

# A prerequisite added to the Makefile's `setup` (make lab, make test and Binder's postBuild run it).
setup: lab-settings

lab-settings: venv
	@$(PY) scripts/labsettings.py $(VENV)

reset-exercise: venv
	@$(PY) scripts/exercises.py reset $(if $(EXERCISE),"$(EXERCISE)")
