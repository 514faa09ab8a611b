# Node Performance Workbook: `make lab` to learn, `make test` to check everything.
# Needs only python3 (3.10+), any node >= 18 with npm (to bootstrap), and make.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV    := .venv
PY      := $(VENV)/bin/python
NODE    := node_modules/node/bin/node
TSC     := $(NODE) node_modules/typescript/bin/tsc
HARNESS_SRC := $(shell find harness/src -name "*.ts") harness/preload/probe.cjs harness/tsconfig.json
TOOLS_SRC   := $(shell find tools/src -name "*.ts") tools/tsconfig.json

# The venv is checked on every run (a fraction of a second: packages are found, not imported).
# Its packages must be there, and a venv made here by `python3 -m venv` (it has pyvenv.cfg) must
# belong to THIS folder: a moved or copied folder keeps the old absolute path in the first line
# of every script in .venv/bin, and `jupyter lab` would not start. Such a venv is deleted and
# made again. A folder that is not such a venv (Binder's conda env, VENV=...) is never deleted:
# it only gets `pip install`. requirements.txt is installed again when it differs from the copy
# kept in the venv.
VENV_STAMP := $(VENV)/.workbook-requirements.txt
VENV_HAS   := $(PY) -c 'import importlib.util as u, sys; sys.exit(any(u.find_spec(m) is None for m in ("jupyterlab", "nbclient", "nbconvert", "pytest")))'
VENV_HERE  := { test ! -f $(VENV)/pyvenv.cfg || head -n 2 $(VENV)/bin/jupyter | grep -qF '$(abspath $(VENV))/bin/python'; }

# npm ci runs when package.json or the lock is newer than npm's own record of the last install
# (node_modules/.package-lock.json, gone with node_modules), or when a file the workbook needs
# from node_modules is missing (checked when make starts).
NPM_DONE    := node_modules/.package-lock.json
NPM_NEEDS   := $(NODE) node_modules/typescript/bin/tsc node_modules/tslab/bin/tslab node_modules/@workbook/harness/package.json \
               node_modules/@workbook/tools/package.json
NPM_MISSING := $(filter-out $(wildcard $(NPM_NEEDS)),$(NPM_NEEDS))

export WORKBOOK_PROFILE ?= full
LAB_PORT ?= 8888
# e.g. LAB_ARGS=--no-browser on a remote machine
LAB_ARGS ?=
# Everything the workbook runs uses the pinned Node first.
export PATH := $(CURDIR)/node_modules/node/bin:$(PATH)

.PHONY: strip venv kernel FORCE help setup runtimes lab test lint format test-unit test-integration test-portable test-notebooks test-notebooks-static test-notebooks-executed test-notebook-beside-static test-exercises exercises grade bench-harness spreads execute reference clean distclean

help:
	@echo "make setup           set up or repair: venv, npm ci, the harness, the kernel (each only when needed)"
	@echo "make lab             set up (idempotent) and open JupyterLab on 127.0.0.1 with the tslab kernel"
	@echo "make runtimes        fetch Node 22, Node 24 and Bun for notebook 03's runtimes and validation sections (about 156 MB; make test does)"
	@echo "make test            set up and run every test, executing every notebook (WORKBOOK_PROFILE=quick for short loads)"
	@echo "make test-integration  end to end against live servers: the harness, the diagnosis, the exercise notebooks, grading"
	@echo "make test-portable     notebooks 00 and 03 with the readings a Mac takes (no /proc, no pinning)"
	@echo "make lint / format   check / fix formatting, lint rules and import cycles (Biome)"
	@echo "make execute [ONLY=01-slow-etag-server]   execute every notebook (or those named) into build/executed/ (artefacts, with outputs)"
	@echo "make bench-harness   measure the harness's method: node:http over Express by wrk and autocannon, long rounds and 1-s pairs (BENCH_ARGS='--chart f.png', or one of each: BENCH_ARGS='--design pairs --generator wrk --pairs 600')"
	@echo "make exercises       regenerate exercises/ from solutions/ (the test fails when they differ)"
	@echo "make strip [STRIP=notebooks/01-slow-etag-server.ipynb]   save notebooks without outputs, as they are committed (default: notebooks/ and solutions/)"
	@echo "make grade SUBMISSIONS=folder   check every learner's exercises; CSV + HTML in build/grades/ (or GRADES_DIR)"
	@echo "make reset-exercise EXERCISE=01-etag   back up your edits to an exercise, then restore its starting files"
	@echo "make diagnose APP=path/to/server.js [ROUTE=/path | ROUTES=routes.json]   what holds a server back, from one short load; its CPU per request against a bare server's and its framework's, measured beside it; ROUTES: several, ranked"
	@echo "make calibrate-diagnosis [RUNS=10] [BUSY=1]   re-measure the diagnosis's lines on the servers of tests/fixtures/diagnose/"
	@echo "make reference       the harness's API reference, from its doc comments, into build/reference/ (Markdown; make test builds it)"
	@echo "make compare A=old.js B=new.js [ROUTE=/path] [SECONDS=60]   is B faster? the verdict with its interval (APP=server.js BASE=main: your changes against a commit; APP=... RUNTIMES=node24,node26; SAME=1: the noise floor; FAIL_IF_SLOWER=5 for CI)"
	@echo "make as-published    run every study's commands at their own length on this machine (AS_PUBLISHED_ARGS=--dry-run says how long; not part of make test) into notebooks/as-published.json"
	@echo "make book            render every notebook, executed, into build/book/ (one HTML page each)"
	@echo "make test-browser    open the book and JupyterLab in Chromium and check what a learner sees"
	@echo "make clean           remove build/ and results/;  make distclean also removes .venv and node_modules"

# Set-up looks at what is really there, not at stamp files beside it, so that it repairs what
# was deleted, moved or half-installed (docs/troubleshooting.md).
setup: venv $(NPM_DONE) harness/dist/index.js tools/dist/index.js kernel

venv:
	@if $(VENV_HAS) 2>/dev/null && $(VENV_HERE) 2>/dev/null; then \
	  cmp -s requirements.txt $(VENV_STAMP) && exit 0; \
	  echo "requirements.txt is not what $(VENV) was installed from: installing it"; \
	else \
	  command -v python3 >/dev/null || { echo "python3 (3.10+) is required"; exit 1; }; \
	  python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' || { echo "python3 must be 3.10 or newer"; exit 1; }; \
	  if test -f $(VENV)/pyvenv.cfg; then echo "$(VENV) does not work from this folder (moved, copied or broken): making it again"; rm -rf $(VENV); fi; \
	  test -x $(PY) || python3 -m venv $(VENV) || exit 1; \
	fi; \
	set -e; \
	$(PY) -m pip install --quiet --upgrade pip; \
	$(PY) -m pip install --quiet -r requirements.txt; \
	$(VENV_HAS) && $(VENV_HERE) || { echo "$(VENV) still lacks jupyterlab, nbclient, nbconvert or pytest after installing requirements.txt"; exit 1; }; \
	cp requirements.txt $(VENV_STAMP)

$(NPM_DONE): package.json package-lock.json $(if $(NPM_MISSING),FORCE)
	@command -v npm >/dev/null || { echo "npm (any Node >= 18) is required to bootstrap the pinned Node"; exit 1; }
	npm ci --no-audit --no-fund
	@for f in $(NPM_NEEDS); do test -e $$f || { echo "npm ci did not install $$f"; exit 1; }; done
	@test -f $@ || { echo "npm ci wrote no $@"; exit 1; }
	@touch $@

FORCE:

harness/dist/index.js: $(NPM_DONE) $(HARNESS_SRC)
	rm -rf harness/dist
	$(TSC) -p harness

# The tools (make diagnose, make compare) build on the harness's entries, so on its built types.
tools/dist/index.js: harness/dist/index.js $(TOOLS_SRC)
	rm -rf tools/dist
	$(TSC) -p tools

# Rewritten on every set-up: the kernelspec holds this folder's absolute paths.
kernel: venv $(NPM_DONE)
	@$(NODE) scripts/install-kernel.mjs $(VENV)

# The runtimes only notebook 03's runtimes and validation sections use (Node 22 and 24, Bun), kept out of the
# set-up so that the first chart waits for none of them: `make runtimes` (make test runs it), into
# runtimes/node_modules/. Linux x64 binaries: elsewhere npm skips them and notebook 03 says so.
RUNTIMES_DONE := runtimes/node_modules/.workbook-installed
runtimes: $(RUNTIMES_DONE)

$(RUNTIMES_DONE): runtimes/package.json runtimes/package-lock.json
	@command -v npm >/dev/null || { echo "npm is required to fetch the runtimes"; exit 1; }
	@echo "Fetching Node 22, Node 24 and Bun for notebook 03's runtimes and validation sections: about 156 MB to download, 477 MB on disk ..."
	npm ci --prefix runtimes --no-audit --no-fund
	@mkdir -p $(@D) && touch $@

lab: setup
	$(VENV)/bin/jupyter lab --ServerApp.ip=127.0.0.1 --ServerApp.port=$(LAB_PORT) --ServerApp.root_dir="$(CURDIR)" --LabApp.default_url=/lab/tree/notebooks $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

# The set-up's downloads (the venv, npm ci, the runtimes) run side by side: on a clean clone they wait
# on the network more than on the CPU. Then the tests that no timing decides run side by side too (lint,
# the unit tests, the exercises' bookkeeping, the notebook tests that execute no workbook notebook), and
# beside them notebook 04 (BESIDE_STATIC), whose checks read memory, not speed: retained bytes, and the
# churning app's GC time per request over the quiet one's, 112-198x beside them and 166-293x beside a busy
# loop on every CPU (its busy runs in notebooks/spreads.json), against a 10x line. Last, alone on the
# machine, the other notebooks, whose loads must not share it, and every executed copy read as a learner
# reads it. Each target's output is printed whole when it ends.
BESIDE_STATIC := 04-memory
test:
	$(MAKE) --no-print-directory -j3 --output-sync=target setup runtimes
	$(MAKE) --no-print-directory -j5 --output-sync=target lint test-unit test-exercises test-notebooks-static \
	  test-notebook-beside-static
	$(MAKE) --no-print-directory test-notebooks-executed \
	  NOTEBOOK_DESELECT="--deselect tests/notebooks/test_notebooks.py::test_notebook_executes[$(BESIDE_STATIC)]"

# Biome (biome.json): formatting, lint rules, import cycles. `make format` applies its fixes.
BIOME := node_modules/@biomejs/biome/bin/biome
lint:
	$(NODE) $(BIOME) ci --colors=off

format:
	$(NODE) $(BIOME) check --write

# The harness's API reference, generated by TypeDoc (harness/typedoc.json) from the doc comments of its
# three entries into build/reference/, and the tools' (tools/typedoc.json) into build/reference/tools/
# (after, since each run empties its folder), one Markdown page per name: harness/README.md is the map, this is
# the reference, so it cannot drift from the code. Any TypeDoc warning (a broken {@link}, a bad tag)
# fails it. make test builds it through tests/notebooks/test_reference.py (test-notebooks-static). It
# skips its own type check (skipErrorChecking): the harness's build (tsc) checks the same code.
reference: $(NPM_DONE)
	$(NODE) node_modules/typedoc/bin/typedoc --options harness/typedoc.json --logLevel Warn && $(NODE) node_modules/typedoc/bin/typedoc --options tools/typedoc.json --logLevel Warn

# Two test files at a time: node:test's default on a 2-core machine is one, and most of the suite's
# time is spent waiting for the apps it starts (83 s one at a time, 48 s two at a time, measured; 35 s since
# the harness loads in 0.6 s rather than 1.3: jsdom waits for the first chart).
test-unit:
	$(NODE) --test --test-concurrency=2 --test-reporter=spec tests/unit/

# End to end against live servers, where a test times or classifies them (slow; CI runs it after
# make test): the harness (tests/integration/), the exercise notebooks both ways and a class's grading.
test-integration: setup
	$(NODE) --test --test-reporter=spec tests/integration/
	$(PY) -m pytest -v --durations=8 -m integration tests/exercises

test-notebooks: test-notebooks-static test-notebooks-executed

# The notebook tests that no timing decides (cell shapes, committed copies, set-up files, the book, and
# the runner's own tests, which prove that no process or port outlives a notebook, even one that throws
# in the middle of a short load: they tell their own processes by a marker, so the tests running beside
# them do not disturb them), then, alone on the machine, the notebooks executed one after the other, and
# what they printed read as a learner reads it (test_reading.py, on the executed copies).
NOTEBOOK_RUNS := tests/notebooks/test_notebooks.py tests/notebooks/test_reading.py
test-notebooks-static:
	$(PY) -m pytest -v --durations=8 tests/notebooks $(addprefix --ignore=,$(NOTEBOOK_RUNS))

NOTEBOOK_DESELECT ?=
test-notebooks-executed:
	$(PY) -m pytest -v --durations=8 $(NOTEBOOK_RUNS) $(NOTEBOOK_DESELECT)

test-notebook-beside-static:
	$(PY) -m pytest -v tests/notebooks/test_notebooks.py -k "$(BESIDE_STATIC)"

# Exercises: regenerated from solutions/ and compared, the grader's bookkeeping, reset (tests/exercises/;
# each check run both ways, the notebooks end to end and a whole class's grading: make test-integration).
test-exercises:
	$(PY) -m pytest -v --durations=8 -m "not integration" tests/exercises

exercises: venv
	$(PY) scripts/exercises.py generate

# Notebooks are committed without outputs; JupyterLab saves them with theirs (docs/instructors.md).
STRIP ?= $(wildcard notebooks/[0-9][0-9]-*.ipynb solutions/*/*.ipynb)
strip: venv
	$(PY) scripts/nbtool.py strip $(STRIP)

GRADES_DIR ?= build/grades
# e.g. GRADE_ARGS="--only 01-etag --timeout 300" (scripts/exercises.py grade --help)
GRADE_ARGS ?=
grade: setup
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade SUBMISSIONS=path/to/folder (one sub-folder per learner)"; exit 2; }
	$(PY) scripts/exercises.py grade "$(SUBMISSIONS)" --out "$(GRADES_DIR)" $(GRADE_ARGS)

# ONLY="01-slow-etag-server 05-micro-optimisations": those notebooks only
execute: setup
	$(PY) scripts/execute.py notebooks build/executed $(ONLY)

# Notebooks 00 and 03 as a Mac runs them: the portable readings (a Node app's probe, ps, the shell's
# `times` for wrk) and no pinning, forced here on Linux. CI runs it on every change; its executed
# copies (build/portable/) and results stay apart from make test's, and out of make spreads.
PORTABLE_NOTEBOOKS ?= 00-getting-started 03-frameworks
test-portable: setup
	WORKBOOK_READINGS=portable WORKBOOK_PIN=0 WORKBOOK_RESULTS_DIR=build/portable/results \
	  $(PY) scripts/execute.py notebooks build/portable $(PORTABLE_NOTEBOOKS)

# Every check's measured spread from repeated runs (scripts/spreads.py): each notebook six times on a
# quiet machine, then four times beside a busy loop on each CPU (about 100 min for all nine, quick), e.g.
# make spreads NOTEBOOKS="notebooks/02-event-loop.ipynb" SPREAD_ARGS="--runs 3 --busy-runs 2"
SPREAD_ARGS ?= --runs 6 --busy-runs 4
NOTEBOOKS ?= $(sort $(wildcard notebooks/[0-9][0-9]-*.ipynb))
spreads: setup
	$(PY) scripts/spreads.py $(SPREAD_ARGS) $(NOTEBOOKS)

# e.g. BENCH_ARGS="--pairs 30 --chart docs/method.png"
BENCH_ARGS ?=
bench-harness: setup
	$(NODE) scripts/bench-harness.js $(BENCH_ARGS)

clean:
	rm -rf build results

distclean: clean
	rm -rf $(VENV) node_modules runtimes/node_modules harness/dist tools/dist .stamps

# Areas with several targets of their own.
-include mk/*.mk
