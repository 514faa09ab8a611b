# Node Performance Workbook: `make lab` to learn, `make test` to check everything.
# Needs only python3 (3.10+), any node >= 18 with npm (to bootstrap), and make.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV    := .venv
PY      := $(VENV)/bin/python
NODE    := node_modules/node/bin/node
TSC     := $(NODE) node_modules/typescript/bin/tsc
STAMPS  := .stamps
HARNESS_SRC := $(wildcard harness/src/*.ts) harness/tsconfig.json

export WORKBOOK_PROFILE ?= full
LAB_PORT ?= 8888
# e.g. LAB_ARGS=--no-browser on a remote machine
LAB_ARGS ?=
# Everything the workbook runs uses the pinned Node first.
export PATH := $(CURDIR)/node_modules/node/bin:$(PATH)

.PHONY: kernel help setup lab test test-unit test-notebooks test-exercises exercises grade bench-harness execute clean distclean

help:
	@echo "make lab             set up (idempotent) and open JupyterLab on 127.0.0.1 with the tslab kernel"
	@echo "make test            set up and run every test, executing every notebook (WORKBOOK_PROFILE=quick for short loads)"
	@echo "make execute         execute every notebook into build/executed/ (artefacts, with outputs)"
	@echo "make bench-harness   measure the harness itself: one app, 5 runs, median and spread"
	@echo "make exercises       regenerate exercises/ from solutions/ (the test fails when they differ)"
	@echo "make grade SUBMISSIONS=folder   check every learner's exercises; CSV + HTML in build/grades/ (or GRADES_DIR)"
	@echo "make clean           remove build/ and results/;  make distclean also removes .venv and node_modules"

setup: $(STAMPS)/venv $(STAMPS)/npm harness/dist/index.js kernel

$(STAMPS)/venv: requirements.txt
	@command -v python3 >/dev/null || { echo "python3 (3.10+) is required"; exit 1; }
	@python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' || { echo "python3 must be 3.10 or newer"; exit 1; }
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	@mkdir -p $(STAMPS) && touch $@

$(STAMPS)/npm: package.json package-lock.json
	@command -v npm >/dev/null || { echo "npm (any Node >= 18) is required to bootstrap the pinned Node"; exit 1; }
	npm ci --no-audit --no-fund
	@test -x $(NODE) || { echo "the pinned Node was not installed at $(NODE)"; exit 1; }
	@mkdir -p $(STAMPS) && touch $@

harness/dist/index.js: $(STAMPS)/npm $(HARNESS_SRC)
	rm -rf harness/dist
	$(TSC) -p harness

kernel: $(STAMPS)/venv $(STAMPS)/npm
	@$(NODE) scripts/install-kernel.mjs $(VENV)

lab: setup
	$(VENV)/bin/jupyter lab --ServerApp.ip=127.0.0.1 --ServerApp.port=$(LAB_PORT) --ServerApp.root_dir=$(CURDIR) --LabApp.default_url=/lab/tree/notebooks $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

test: setup
	$(MAKE) --no-print-directory test-unit test-notebooks test-exercises

test-unit:
	$(NODE) --test --test-reporter=spec tests/unit/

test-notebooks:
	$(PY) -m pytest -v tests/notebooks

# Exercises: regenerated from solutions/, checked both ways, graded (tests/exercises/).
test-exercises:
	$(PY) -m pytest -v tests/exercises

exercises: $(STAMPS)/venv
	$(PY) scripts/exercises.py generate

GRADES_DIR ?= build/grades
grade: setup
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade SUBMISSIONS=path/to/folder (one sub-folder per learner)"; exit 2; }
	$(PY) scripts/exercises.py grade "$(SUBMISSIONS)" --out "$(GRADES_DIR)"

execute: setup
	$(PY) scripts/execute.py notebooks build/executed

bench-harness: setup
	$(NODE) scripts/bench-harness.js

clean:
	rm -rf build results

distclean: clean
	rm -rf $(VENV) node_modules harness/dist $(STAMPS)
