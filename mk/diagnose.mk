# make diagnose APP=path/to/server.js [ROUTE=/path | ROUTES=routes.json] [WATCH=seconds] [PORT=port]: what
# holds a server back, from one short load. Prints the verdict with the numbers it rests on, the CPU a
# request costs against a bare node:http answer and the framework's hello route measured beside it,
# and writes an HTML report to results/diagnose/ (scripts/diagnose.js; in a notebook, tools.diagnose).
# ROUTES: a JSON file of routes (paths, or {"route", "method", "body", "headers"}), each diagnosed,
# ranked by CPU per request against the reference (tools.diagnoseRoutes). WATCH: the seconds
# watched (longer, when the verdict says memory is undecided). PORT: the port to load, for a server
# that listens on several (it is given PORT too); only from the command line, not from a PORT in
# your environment. APP is checked before set-up runs.
.PHONY: diagnose diagnose-args

diagnose: diagnose-args setup
	$(NODE) scripts/diagnose.js "$(APP)" $(if $(ROUTES),--routes "$(ROUTES)",--route "$(or $(ROUTE),/)") $(if $(WATCH),--seconds "$(WATCH)") $(if $(filter command line,$(origin PORT)),--port "$(PORT)")

diagnose-args:
	@test -n "$(APP)" || { echo "usage: make diagnose APP=path/to/server.js [ROUTE=/path | ROUTES=routes.json] [WATCH=seconds] [PORT=port]  (a server file of yours, or an app of the registry)" >&2; exit 2; }

# make calibrate-diagnosis [RUNS=10] [BUSY=1]: diagnose every server of tests/fixtures/diagnose/cases.json
# RUNS times (quiet, or beside a busy loop on every CPU), append the evidence to
# build/calibration/evidence.jsonl, then print the lines fitted from all of it, the confusion matrix and
# the leave-one-out check (scripts/calibrate-diagnosis.js; about 12 s a diagnosis, 30 cases).
# make calibrate-diagnosis-report: the same report from what is recorded, with nothing measured.
.PHONY: calibrate-diagnosis calibrate-diagnosis-report
calibrate-diagnosis: setup
	WORKBOOK_PROFILE=quick $(NODE) scripts/calibrate-diagnosis.js --runs "$(or $(RUNS),10)" $(if $(BUSY),--busy)

calibrate-diagnosis-report: setup
	$(NODE) scripts/calibrate-diagnosis.js --report
