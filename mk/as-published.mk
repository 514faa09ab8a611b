# make as-published: every study's commands at their own length, connections and threads, on this machine
# (scripts/as-published.js; not part of make test): "Keeping Node.js Fast"'s three 10-s autocannon runs,
# the 2022 table's `wrk -t 12 -c 500 -d 5m` on each of its frameworks the workbook has, Osgood's
# `wrk -d 60 -c 10`, the Swift-vs-Node study's 10-minute and 1-minute loads on Express, Elysia's five 10-s
# runs (compiled, on Bun; wrk for oha, which is not installed). About 55 minutes on the 2-core machine.
# Its record, notebooks/as-published.json (committed), is what notebooks 01, 03 and 05 show beside their
# quick runs. AS_PUBLISHED_ARGS="--only osgood" runs one study into build/as-published/record.json;
# "--dry-run" prints the plan and its length.
.PHONY: as-published

AS_PUBLISHED_ARGS ?=
as-published: setup runtimes
	$(NODE) scripts/as-published.js $(AS_PUBLISHED_ARGS)
