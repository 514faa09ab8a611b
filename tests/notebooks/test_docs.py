"""The front page and the pages behind it: README.md is a front page (under 200 lines) that reaches
every page of docs/ in one link, each page says whom it is for, and no page carries a figure that goes
stale by itself: a round-relative phrase ("this round"), a hand-kept count of tests or of a file's
lines, or a placeholder for the repository's name. Shown failing on the wrong input below."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs").glob("*.md"))
DOCS = [ROOT / "README.md", *PAGES, ROOT / "harness" / "README.md", ROOT / "harness" / "METHOD.md",
        ROOT / "tools" / "README.md", ROOT / "apps" / "README.md", ROOT / "solutions" / "README.md"]

STALE = [
    (re.compile(r"\b(this|last|next) (round|stop)\b|\bthe (round|stop)'s\b", re.I), "a round-relative phrase"),
    (re.compile(r"\b\d[\d,]* (unit |integration )?tests\b"), "a hand-kept count of tests"),
    (re.compile(r"(?<!under )(?<!over )\b\d[\d,]* lines\b"), "a hand-kept line count"),  # a limit ("under 500 lines") is no count
    (re.compile(r"OWNER/REPO"), "a placeholder for the repository"),
]


def stale(text: str) -> list[str]:
    """Every phrase of `text` (outside code blocks) that goes stale by itself, with what it is."""
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    return [f"{what}: …{prose[max(0, m.start() - 40):m.end() + 30]}…".replace("\n", " ")
            for pattern, what in STALE for m in pattern.finditer(prose)]


def test_the_front_page_is_short_and_reaches_every_page_in_one_link():
    readme = (ROOT / "README.md").read_text()
    lines = readme.count("\n")
    assert lines < 200, f"README.md has {lines} lines: it is the front page; the rest belongs in docs/"
    linked = set(re.findall(r"\]\(docs/([\w-]+\.md)", readme))
    assert PAGES, "docs/ holds no page"
    assert {p.name for p in PAGES} <= linked, f"not linked from README.md: {sorted({p.name for p in PAGES} - linked)}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_each_page_says_whom_it_is_for_and_its_links_resolve(page):
    text = page.read_text()
    assert re.match(r"# .+\n\n\*For .+\*", text), f"{page.name} does not open with whom it is for (*For ...*)"
    broken = [t for t in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text) if not (page.parent / t).exists()]
    assert broken == [], f"{page.name} links to files that do not exist: {broken}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_carries_a_figure_that_goes_stale_by_itself(doc):
    assert stale(doc.read_text()) == []


def test_the_stale_phrases_are_found_on_the_wrong_input():
    wrong = ("The quick column is this round's. `test-unit` (380 tests, deterministic). About 100 of `book.py`'s "
             "508 lines. [badge](https://codespaces.new/OWNER/REPO)")
    assert [s.split(":")[0] for s in stale(wrong)] == [
        "a round-relative phrase", "a hand-kept count of tests", "a hand-kept line count", "a placeholder for the repository"]
    right = "Ten rounds of 1 s. Each test prints every number. ```sh\nmake test  # 380 tests this round\n```"
    assert stale(right) == []
