# make diagnose APP=path/to/server.js [ROUTE=/path]: what holds a server back, from one short load.
# Prints the verdict with the numbers it rests on and writes an HTML report to results/diagnose/
# (scripts/diagnose.js; in a notebook, wb.diagnose). APP is checked before set-up runs.
.PHONY: diagnose diagnose-args

diagnose: diagnose-args setup
	$(NODE) scripts/diagnose.js "$(APP)" --route "$(or $(ROUTE),/)"

diagnose-args:
	@test -n "$(APP)" || { echo "usage: make diagnose APP=path/to/server.js [ROUTE=/path]  (a server file of yours, or an app of the registry)" >&2; exit 2; }
