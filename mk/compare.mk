# make compare: is B faster than A? Two versions of a server compared side by side in rounds, the
# verdict with its 95 % interval, every number it rests on, a JSON result and a Markdown summary in
# results/compare/ (scripts/compare.js; in a notebook, tools.compare; docs/your-server.md "Is it faster?").
#   make compare A=old/server.js B=new/server.js [ROUTE=/path] [SECONDS=60]
#   make compare APP=server.js BASE=main              BASE's version (a temporary git worktree) against yours
#   make compare APP=server.js RUNTIMES=node24,node26 one file on two runtimes (make runtimes)
#   make compare A=server.js B=server.js SAME=1       an A/A run: this machine's noise floor
# Options: FAIL_IF_SLOWER=5 (exit 1 when B is slower by more than 5 %), RUNTIME_A, RUNTIME_B, CONNECTIONS,
# DESIGN=side-by-side|rounds, ORDER=alternate|random, NOISE (percent), JSON=file, MARKDOWN=file.
# The arguments are checked before set-up runs.
.PHONY: compare compare-args

compare: compare-args setup
	$(NODE) scripts/compare.js $(if $(A),"$(A)") $(if $(B),"$(B)") $(if $(APP),--app "$(APP)") \
	  $(if $(BASE),--base "$(BASE)") $(if $(RUNTIMES),--runtimes "$(RUNTIMES)") \
	  $(if $(RUNTIME_A),--runtime-a "$(RUNTIME_A)") $(if $(RUNTIME_B),--runtime-b "$(RUNTIME_B)") \
	  $(if $(ROUTE),--route "$(ROUTE)") $(if $(SECONDS),--seconds "$(SECONDS)") \
	  $(if $(CONNECTIONS),--connections "$(CONNECTIONS)") $(if $(DESIGN),--design "$(DESIGN)") \
	  $(if $(ORDER),--order "$(ORDER)") $(if $(NOISE),--noise "$(NOISE)") \
	  $(if $(FAIL_IF_SLOWER),--fail-if-slower "$(FAIL_IF_SLOWER)") $(if $(SAME),--same) \
	  $(if $(JSON),--json "$(JSON)") $(if $(MARKDOWN),--markdown "$(MARKDOWN)")

compare-args:
	@test -n "$(A)$(B)$(APP)" || { echo "usage: make compare A=old/server.js B=new/server.js [ROUTE=/path] [SECONDS=60]  (or APP=server.js BASE=main, or APP=server.js RUNTIMES=node24,node26; make help)" >&2; exit 2; }
