"""make book (scripts/book.py) on made-up executed notebooks: which copy is used and when a notebook is
executed, the index, the pages' navigation and run line, clinic reports copied and linked, nothing
fetched from the internet. No kernel runs here; tests/browser/book.test.js looks at the real book."""
from __future__ import annotations

import base64
import json
import os
import re
import sys
import time
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import book  # noqa: E402
from nbtool import new_notebook  # noqa: E402

MACHINE = "Node v26.10.0 · V8 14.6 · AMD EPYC · 2 cores · 23.5 GiB · workbook 0.1.0 · profile quick · pinning none"
PNG = base64.b64encode(bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cfc0f01f0005"
    "0001ff5a0f7d3d0000000049454e44ae426082")).decode()
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="20" height="10"/></svg>'


def source(title: str, intro: str) -> nbformat.NotebookNode:
    return new_notebook([("md", f"# {title}\n\n{intro}\n\nMore text.\n\n## A section"),
                         ("code", 'import * as wb from "@workbook/harness";\nconsole.log(wb.describeMachine());'),
                         ("code", "wb.show(chart);"),
                         ("code", "wb.markdown(report);")])


def executed(nb: nbformat.NotebookNode, *, report: str | None = None, seconds: float = 75.0,
             ended: str = "2026-11-25T23:20:49.566000Z") -> nbformat.NotebookNode:
    nb = nbformat.from_dict(json.loads(json.dumps(nb)))
    code = [c for c in nb.cells if c.cell_type == "code"]
    code[0].outputs = [nbformat.v4.new_output("stream", name="stdout", text=MACHINE + "\n")]
    code[1].outputs = [nbformat.v4.new_output("display_data", data={"image/png": PNG, "image/svg+xml": SVG, "text/plain": "a chart"})]
    if report:
        text = f"Doctor's own interactive report: `{report}` (open it in a browser)."
        code[2].outputs = [nbformat.v4.new_output("display_data", data={"text/markdown": text, "text/plain": text})]
    for i, c in enumerate(code):
        c.execution_count = i + 1
        c.metadata["execution"] = {"iopub.status.busy": "2026-11-25T23:19:00.000000Z", "iopub.status.idle": ended}
    nb.metadata["workbook"] = {"executed_seconds": seconds}
    return nb


@pytest.fixture
def tree(tmp_path):
    """notebooks/ with three notebooks; executed/ with fresh copies of 00 and 01 and a stale one of 02."""
    nbs, exe, clinic = tmp_path / "notebooks", tmp_path / "executed", tmp_path / "results" / "clinic" / "etag-slow-doctor-1"
    nbs.mkdir()
    exe.mkdir()
    clinic.mkdir(parents=True)
    report = clinic / "etag-slow.clinic-doctor.html"
    report.write_text("<html><body>doctor</body></html>")
    gone = tmp_path / "results" / "clinic" / "old-doctor-0" / "old.clinic-doctor.html"
    specs = {"00-first": ("00 · First steps", "Start **here**: a first [load test](https://example.org).", None),
             # as the notebooks print it, from the workbook's folder (here tmp_path, above notebooks/)
             "01-second": ("01 · Second", "The second notebook.", str(report.relative_to(tmp_path))),
             "02-third": ("02 · Third", "The third notebook.", str(gone))}
    for name, (title, intro, rep) in specs.items():
        nbformat.write(source(title, intro), nbs / f"{name}.ipynb")
    past = time.time() - 100
    os.utime(nbs / "02-third.ipynb", (past, past))
    for name, (title, intro, rep) in specs.items():
        nb = executed(nbformat.read(nbs / f"{name}.ipynb", as_version=4), report=rep)
        nbformat.write(nb, exe / f"{name}.ipynb")
    stale = time.time() - 200  # older than its notebook: must be executed again
    os.utime(exe / "02-third.ipynb", (stale, stale))
    return {"notebooks": nbs, "executed": exe, "out": tmp_path / "build" / "book", "report": report, "gone": gone,
            "specs": specs}


def test_the_book_uses_fresh_copies_executes_stale_ones_and_links_pages_and_reports(tree):
    ran, lines = [], []

    def fake_execute(path: Path) -> nbformat.NotebookNode:
        ran.append(path.name)
        return executed(nbformat.read(path, as_version=4), report=str(tree["gone"]), seconds=3725,
                        ended="2026-11-26T08:00:00.000000Z")

    manifest = book.build(tree["notebooks"], tree["executed"], tree["out"], execute=fake_execute, log=lines.append,
                          profile="quick")
    log = "\n".join(lines)
    assert ran == ["02-third.ipynb"]  # 00 and 01 had fresh executed copies
    assert "executed" in manifest["pages"][2]["how"] and manifest["missing"] == [] and manifest["failed"] == []
    assert nbformat.read(tree["executed"] / "02-third.ipynb", as_version=4).metadata.workbook.executed_seconds == 3725
    assert "00-first: using" in log

    out = tree["out"]
    index = (out / "index.html").read_text()
    assert re.findall(r'class="wb-notebook" href="([^"]+)"', index) == ["00-first.html", "01-second.html", "02-third.html"]
    assert "Start <strong>here</strong>" in index and "More text" not in index  # the first paragraph only
    assert "Ran for <b>1 min 15 s</b>" in index and "Ran for <b>1 h 2 min</b>" in index
    assert "00 · First steps" in index

    first, second, third = ((out / f"{n}.html").read_text() for n in ("00-first", "01-second", "02-third"))
    assert 'rel="prev"' not in first and first.count('href="01-second.html"') >= 2
    assert re.search(r'<a[^>]*href="00-first.html"[^>]*rel="prev"|<a[^>]*rel="prev"[^>]*href="00-first.html"', second)
    assert re.search(r'<a[^>]*href="02-third.html"[^>]*rel="next"|<a[^>]*rel="next"[^>]*href="02-third.html"', second)
    assert 'rel="next"' not in third
    for page in (first, second, third):
        assert MACHINE.replace("·", "&middot;") in page or MACHINE in page
        assert not re.search(r'<(script|link|img)\b[^>]*(src|href)="https?://', page)
        assert "cdnjs" not in page and "require.min.js" not in page and "MathJax" not in page
        assert "white-space: pre-wrap" in page  # code wraps
        assert 'src="data:image/svg+xml;base64,' in page  # the chart, inline
    assert "2026-11-25 23:20 UTC" in first and "2026-11-26 08:00 UTC" in third

    # The report that exists is copied beside the pages and linked; the one that is gone is reported and left.
    rel = "reports/etag-slow-doctor-1/etag-slow.clinic-doctor.html"
    assert (out / rel).read_text() == tree["report"].read_text()
    assert f'href="{rel}"' in second and 'class="wb-report"' in second
    assert str(tree["gone"]) in third and 'class="wb-report"' not in third
    assert f"the clinic report {tree['gone']} no longer exists" in log
    assert json.loads((out / "book.json").read_text())["pages"][1]["reports"] == [rel]


def test_no_execute_leaves_out_what_has_no_fresh_copy_and_says_so(tree):
    lines = []
    manifest = book.build(tree["notebooks"], tree["executed"], tree["out"], execute=None, log=lines.append,
                          profile="quick")
    assert [p["name"] for p in manifest["pages"]] == ["00-first", "01-second"]
    assert manifest["missing"] == [{"name": "02-third", "why": "not rendered: the executed copy is older than the notebook"}]
    index = (tree["out"] / "index.html").read_text()
    assert "02 · Third" in index and "not rendered" in index and 'href="02-third.html"' not in index
    assert 'rel="next"' not in (tree["out"] / "01-second.html").read_text()


def test_a_failing_notebook_is_left_out_and_fails_the_build(tree, monkeypatch, capsys):
    def broken(path):
        raise RuntimeError("cell 3 failed")

    monkeypatch.setattr(book, "run_notebook", broken)
    monkeypatch.setenv("WORKBOOK_PROFILE", "quick")
    code = book.main(["book.py", "--notebooks", str(tree["notebooks"]), "--executed", str(tree["executed"]),
                      "--out", str(tree["out"])])
    assert code == 1
    err = capsys.readouterr()
    assert "02-third: FAILED: cell 3 failed" in err.out and "not in the book: 02-third" in err.err
    assert (tree["out"] / "01-second.html").exists() and not (tree["out"] / "02-third.html").exists()


def test_the_book_is_made_from_one_profile_full_by_default(tree, monkeypatch):
    """Copies made with the quick profile (make test's) are executed again for a full book; a quick book
    says so on the index and on every page, a full one on neither."""
    ran, lines = [], []

    def fake_execute(path: Path) -> nbformat.NotebookNode:
        ran.append(path.name)
        nb = executed(nbformat.read(path, as_version=4))
        nb.cells[1].outputs[0].text = MACHINE.replace("profile quick", "profile full") + "\n"
        return nb

    monkeypatch.delenv("WORKBOOK_PROFILE", raising=False)
    assert book.wanted_profile() == "full"
    manifest = book.build(tree["notebooks"], tree["executed"], tree["out"], execute=fake_execute, log=lines.append,
                          profile=book.wanted_profile())
    assert ran == ["00-first.ipynb", "01-second.ipynb", "02-third.ipynb"], lines
    assert "00-first: the executed copy was made with the quick profile, the book's is full: executing" in "\n".join(lines)
    assert manifest["profile"] == "full"
    index, page = (tree["out"] / "index.html").read_text(), (tree["out"] / "00-first.html").read_text()
    assert "Rendered from <b>full profile</b> runs" in index and 'class="wb-profile"' not in index + page
    # Made again from the copies it just wrote: reused, no execution.
    ran.clear()
    book.build(tree["notebooks"], tree["executed"], tree["out"], execute=fake_execute, log=lines.append, profile="full")
    assert ran == []
    # Without executing, a full book leaves out the quick copies and says why.
    monkeypatch.setenv("WORKBOOK_PROFILE", "quick")
    quick = book.build(tree["notebooks"], tree["executed"], tree["out"], execute=None, log=lines.append,
                       profile=book.wanted_profile())
    assert quick["missing"][0]["why"] == "not rendered: the executed copy was made with the full profile, the book's is quick"


def test_a_quick_book_says_so_on_every_page(tree):
    book.build(tree["notebooks"], tree["executed"], tree["out"], execute=None, log=lambda _: None, profile="quick")
    index = (tree["out"] / "index.html").read_text()
    assert "Rendered from <b>quick profile</b> runs" in index and 'class="wb-profile"' in index
    for name in ("00-first", "01-second"):
        assert "Executed with the <b>quick</b> profile" in (tree["out"] / f"{name}.html").read_text(), name


def test_only_and_an_unknown_name(tree):
    manifest = book.build(tree["notebooks"], tree["executed"], tree["out"], execute=None, only=["01-second"],
                          log=lambda _: None, profile="quick")
    assert manifest["only"] == ["01-second"] and [p["name"] for p in manifest["pages"]] == ["01-second"]
    with pytest.raises(book.BookError, match="no such notebook .*00-first, 01-second, 02-third"):
        book.build(tree["notebooks"], tree["executed"], tree["out"], execute=None, only=["9-nope"], log=lambda _: None)


def test_title_intro_and_machine_line_of_the_real_notebooks():
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb")):
        title, intro = book.title_and_intro(nbformat.read(path, as_version=4), path.stem)
        assert title.startswith(path.stem[:2]) and intro, path
