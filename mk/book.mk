# The rendered book and the real-browser tests (docs/instructors.md: "The rendered book"; docs/maintaining.md: "Browser tests").
#   make book           build/book/: index.html, one page per notebook, the clinic reports they link
#   make test-browser   the book and notebook 00 in JupyterLab, in Chromium (tests/browser/)
.PHONY: book test-browser

# e.g. BOOK_ARGS=--no-execute (render only the notebooks already executed), BOOK_ARGS="--only 00-getting-started"
BOOK_ARGS ?=
book: setup
	$(PY) scripts/book.py $(BOOK_ARGS)

# Chromium at /usr/bin/chromium (Debian/Ubuntu: apt-get install -y chromium), or WORKBOOK_CHROMIUM=path.
# One test file at a time: the JupyterLab test's load must not share the CPU with the other.
test-browser: book
	WORKBOOK_VENV='$(abspath $(VENV))' $(NODE) --test --test-reporter=spec --test-concurrency=1 tests/browser/
