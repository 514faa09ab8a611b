"""The rendered book: a static HTML site of the executed notebooks, readable offline (make book).

    python scripts/book.py [--out build/book] [--executed build/executed] [--notebooks notebooks]
                           [--no-execute] [--only NAME ...]

The book is made from one profile: WORKBOOK_PROFILE, default full (the long loads and every round;
quick only when asked, and then every page says so). For each notebooks/NN-*.ipynb it uses
build/executed/NN-*.ipynb when that copy is newer than the notebook and was executed with that
profile (its fingerprint line says which); otherwise it executes the notebook (scripts/nbrun.py)
and keeps the executed copy in build/executed/. `--no-execute` renders only the notebooks that
already have such a copy and lists the others as not rendered, with the reason.

It writes build/book/index.html (the curriculum: title, first paragraph, how long each notebook
ran), one page per notebook (NN-name.html, with previous/next links, the machine's fingerprint
line and the date of the run), reports/ (copies of the clinic reports the outputs mention, linked
from the page) and book.json (what was rendered, for the browser test).

Pages are nbconvert's "lab" template (the same as JupyterLab's File > Save and Export as HTML),
with its CSS inlined and its require.js, MathJax and mermaid scripts left out: the charts are
inline PNG/SVG outputs, so nothing is fetched from the internet to show them.
"""
from __future__ import annotations

import argparse
import datetime as dt
import html
import json
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import nbformat
from nbconvert import HTMLExporter
from nbconvert.filters.markdown import markdown2html

sys.path.insert(0, str(Path(__file__).parent))

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_GLOB = "[0-9][0-9]-*.ipynb"
MACHINE_PREFIX = "Node v"
# A path to one of clinic's HTML reports (doctor, flame, bubbleprof), as the notebooks print it: from the
# workbook's folder (results/clinic/...), or absolute. It starts where a path can start, and holds no space.
REPORT_PATH = re.compile(r"((?<![\w./-])(?:/|[\w.-]+/)[^`'\"<>\s]*?\.clinic-[a-z]+\.html)")

# nbconvert's lab template without the scripts it fetches from a CDN (require.js, MathJax, mermaid,
# widgets), with the book's navigation and CSS. The `book` resources are filled in by render_page().
TEMPLATE = """{%- extends 'index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block extra_css -%}<style type="text/css">{{ resources.book.css | safe }}</style>{%- endblock extra_css -%}
{%- block body_header -%}{{ super() }}
{{ resources.book.header | safe }}
{%- endblock body_header -%}
{%- block body_footer -%}
{{ resources.book.footer | safe }}
{{ super() }}
{%- endblock body_footer -%}
"""

# Added to the lab template's CSS: code wraps instead of being cut off at the cell's edge (the
# template sets overflow: hidden on the input area), wide outputs scroll, charts fit the page.
# The note on a page or an index made from a profile other than full.
PROFILE_CSS = ".wb-profile { background: #fff8e1; border-left: 4px solid #f9a825; padding: .4em .8em; }\n"

PAGE_CSS = """
main { max-width: 1100px; margin: 0 auto; padding: 0 1em 2em; }
.jp-InputArea-editor .highlight pre, .jp-InputArea-editor pre {
  white-space: pre-wrap; overflow-wrap: anywhere; word-break: break-word;
}
.jp-OutputArea-output pre { white-space: pre-wrap; word-break: normal; overflow-wrap: anywhere; }
/* The lab template sets font-family: inherit on output <pre>: code shown by wb.showCode() is code. */
.jp-OutputArea-output.jp-RenderedMarkdown pre, .jp-OutputArea-output.jp-RenderedMarkdown pre code {
  font-family: var(--jp-code-font-family, ui-monospace, Menlo, Consolas, monospace); font-size: 13px;
}
/* Code and diffs shown by wb.showCode() / wb.showDiff() sit in a box, as code does in the cells. */
.jp-OutputArea-output.jp-RenderedMarkdown .highlight pre {
  background: #f6f8fa; border: 1px solid #e1e4e8; border-radius: 4px; padding: 8px 12px;
}
.jp-RenderedMarkdown .highlight .gd { color: #b31d28; background: #ffeef0; }
.jp-RenderedMarkdown .highlight .gi { color: #22863a; background: #f0fff4; }
.jp-RenderedMarkdown .highlight .gh, .jp-RenderedMarkdown .highlight .gu { color: #6f42c1; font-weight: bold; }
.jp-OutputArea-output { overflow-x: auto; }
.jp-RenderedMarkdown table, .jp-RenderedHTMLCommon table { display: block; overflow-x: auto; max-width: 100%; }
.jp-RenderedImage img, .jp-RenderedSVG img { max-width: 100%; height: auto; }
.wb-book { font-family: var(--jp-ui-font-family, system-ui, sans-serif); font-size: 14px;
  border-bottom: 1px solid #ddd; margin: 0 0 1em; padding: .8em 0; }
.wb-book.wb-bottom { border-bottom: 0; border-top: 1px solid #ddd; margin: 2em 0 0; }
.wb-nav { display: flex; gap: 1em; flex-wrap: wrap; justify-content: space-between; }
.wb-nav a { text-decoration: none; color: #1565c0; }
.wb-nav a:hover { text-decoration: underline; }
.wb-run { color: #555; margin: .6em 0 0; line-height: 1.7; }
.wb-run code { font-size: 13px; color: #222; background: #f4f4f4; padding: 0 .3em; }
a.wb-report { color: #1565c0; }
.wb-profile { margin: .6em 0 0; }
""" + PROFILE_CSS

INDEX_CSS = PROFILE_CSS + """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.5; color: #222;
  max-width: 860px; margin: 0 auto; padding: 1.5em 1em 3em; }
h1 { margin-bottom: .2em; }
.lede { color: #444; }
ol.curriculum { list-style: none; padding: 0; }
ol.curriculum > li { border-top: 1px solid #ddd; padding: 1em 0; }
ol.curriculum h2 { font-size: 1.25em; margin: 0 0 .3em; }
ol.curriculum h2 a { color: #1565c0; text-decoration: none; }
ol.curriculum h2 a:hover { text-decoration: underline; }
.meta { color: #555; font-size: .9em; }
.meta code, .machine code { font-size: .95em; background: #f4f4f4; padding: 0 .3em; }
.missing { color: #8a6d00; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
"""


class BookError(Exception):
    pass


@dataclass
class Page:
    """One notebook of the book: where it came from and what its page shows."""

    name: str  # NN-name
    source: Path
    nb: nbformat.NotebookNode | None = None
    how: str = ""  # "reused" | "executed" | why it is missing
    title: str = ""
    intro_html: str = ""
    machine: str = ""
    run_date: str = ""
    date_source: str = ""
    seconds: float | None = None
    profile: str = ""
    reports: list[str] = field(default_factory=list)

    @property
    def href(self) -> str:
        return f"{self.name}.html"


# --------------------------------------------------------------------------- reading a notebook

def title_and_intro(nb: nbformat.NotebookNode, fallback: str) -> tuple[str, str]:
    """The first markdown heading's text and the first paragraph after it (Markdown source)."""
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        lines = cell.source.splitlines()
        heading = next((i for i, line in enumerate(lines) if re.match(r"#{1,6}\s", line)), None)
        if heading is None:
            continue
        title = re.sub(r"^#{1,6}\s+", "", lines[heading]).strip()
        paragraph: list[str] = []
        for line in lines[heading + 1:]:
            if not line.strip():
                if paragraph:
                    break
                continue
            if line.lstrip().startswith("#"):
                if paragraph:
                    break
                continue
            paragraph.append(line)
        return title, "\n".join(paragraph)
    return fallback, ""


def _outputs_text(cell: nbformat.NotebookNode) -> list[str]:
    texts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            texts.append(out.get("text", ""))
        elif "text/plain" in out.get("data", {}):
            texts.append(out["data"]["text/plain"])
    return texts


def machine_line(nb: nbformat.NotebookNode) -> str:
    """The fingerprint line the first code cell prints (wb.describeMachine(): 'Node v26... · V8 ...')."""
    code = [c for c in nb.cells if c.cell_type == "code"]
    for cell in code[:1] + code[1:]:
        for text in _outputs_text(cell):
            for line in text.splitlines():
                if line.startswith(MACHINE_PREFIX):
                    return line.strip()
    return ""


def run_date(nb: nbformat.NotebookNode, file: Path) -> tuple[str, str]:
    """When the run ended: the latest of nbclient's per-cell timestamps (cell.metadata.execution,
    recorded in the notebook, so they survive a copy), else the executed file's modification time."""
    stamps = []
    for cell in nb.cells:
        for key, value in cell.get("metadata", {}).get("execution", {}).items():
            if key.endswith(("status.idle", "execute_reply")) and isinstance(value, str):
                try:
                    stamps.append(dt.datetime.fromisoformat(value.replace("Z", "+00:00")))
                except ValueError:
                    continue
    if stamps:
        when, source = max(stamps), "nbclient's timestamps in the notebook"
    else:
        when, source = dt.datetime.fromtimestamp(file.stat().st_mtime, dt.timezone.utc), "the executed file's modification time"
    return when.astimezone(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), source


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "unknown"
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"


def profile_of(machine: str) -> str:
    m = re.search(r"\bprofile (\w+)", machine)
    return m.group(1) if m else ""


# --------------------------------------------------------------------------- executed copies

Executor = Callable[[Path], nbformat.NotebookNode]


def wanted_profile() -> str:
    """The profile the book is made from: WORKBOOK_PROFILE, default full."""
    return os.environ.get("WORKBOOK_PROFILE") or "full"


def run_notebook(path: Path) -> nbformat.NotebookNode:
    """Execute one notebook with the workbook's runner (nbrun.execute), in the book's profile."""
    from nbrun import execute

    # The same limit per cell as scripts/execute.py: a full-profile section can run for over 15 minutes.
    return execute(path, timeout=2 * 3600, env={"WORKBOOK_PROFILE": wanted_profile()})


def executed_copy(source: Path, executed_dir: Path, *, execute: Executor | None, log: Callable[[str], None],
                  profile: str = "full") -> tuple[nbformat.NotebookNode | None, str, Path | None]:
    """(notebook, how, file): the executed copy when it is newer than the source and was executed with
    `profile`, else a fresh run (kept in executed_dir), else None with the reason when execute is None
    (--no-execute)."""
    copy = executed_dir / source.name
    why = "no executed copy"
    if copy.is_file() and copy.stat().st_mtime <= source.stat().st_mtime:
        why = "the executed copy is older than the notebook"
    elif copy.is_file():
        nb = nbformat.read(copy, as_version=4)
        made_with = profile_of(machine_line(nb)) or "an unknown"
        if made_with == profile:
            log(f"{source.stem}: using {_rel(copy)} (newer than {_rel(source)}, {profile} profile)")
            return nb, "reused", copy
        why = f"the executed copy was made with the {made_with} profile, the book's is {profile}"
    if execute is None:
        log(f"{source.stem}: not rendered: {why} (--no-execute)")
        return None, f"not rendered: {why}", None
    log(f"{source.stem}: {why}: executing {_rel(source)} (WORKBOOK_PROFILE={profile}) ...")
    started = time.monotonic()
    nb = execute(source)
    executed_dir.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, copy)
    log(f"{source.stem}: executed in {duration(time.monotonic() - started)}, kept in {_rel(copy)}")
    return nb, "executed", copy


def _rel(p: Path) -> str:
    try:
        return str(p.resolve().relative_to(ROOT))
    except ValueError:
        return str(p)


# --------------------------------------------------------------------------- clinic reports

def report_mentions(nb: nbformat.NotebookNode) -> list[str]:
    """Paths of clinic HTML reports mentioned in the notebook's text and outputs, as written, in order."""
    found: list[str] = []
    for cell in nb.cells:
        texts = [cell.source] if cell.cell_type == "markdown" else []
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                texts.append(out.get("text", ""))
            for mime in ("text/markdown", "text/plain", "text/html"):
                texts.append(out.get("data", {}).get(mime, ""))
        for text in texts:
            for m in REPORT_PATH.finditer(text if isinstance(text, str) else "".join(text)):
                if m.group(1) not in found:
                    found.append(m.group(1))
    return found


def link_reports(page_html: str, mentions: list[str], out_dir: Path, name: str, log: Callable[[str], None],
                 root: Path = ROOT) -> tuple[str, list[str]]:
    """Copy each mentioned report that still exists into out_dir/reports/<its run folder>/ and turn
    the mention into a relative link; a report that no longer exists is logged and left as text."""
    copied = []
    for path in mentions:
        src = Path(path) if Path(path).is_absolute() else root / path  # from the workbook's folder
        if not src.is_file():
            log(f"{name}: warning: the clinic report {path} no longer exists "
                "(results/ cleaned, or the notebook ran elsewhere): its mention is left as text")
            continue
        rel = f"reports/{src.parent.name}/{src.name}"
        dest = out_dir / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
        copied.append(rel)
        escaped = html.escape(path, quote=False)
        link = f'<a class="wb-report" href="{html.escape(rel)}">'
        page_html = page_html.replace(f"<code>{escaped}</code>", f"{link}<code>{html.escape(rel)}</code></a>")
        page_html = re.sub(rf"(?<![\w/\"=]){re.escape(escaped)}", lambda _m: f"{link}{escaped}</a>", page_html)
        log(f"{name}: clinic report copied to {rel} and linked")
    return page_html, copied


# --------------------------------------------------------------------------- pages

def _nav(pages: list[Page], i: int, where: str) -> str:
    prev_page = pages[i - 1] if i > 0 else None
    next_page = pages[i + 1] if i + 1 < len(pages) else None
    prev_link = (f'<a rel="prev" href="{prev_page.href}">&larr; {html.escape(prev_page.title)}</a>' if prev_page
                 else '<span class="wb-none">first notebook</span>')
    next_link = (f'<a rel="next" href="{next_page.href}">{html.escape(next_page.title)} &rarr;</a>' if next_page
                 else '<span class="wb-none">last notebook</span>')
    return (f'<nav class="wb-nav" aria-label="{where}">{prev_link}'
            f'<a rel="contents" href="index.html">Contents</a>{next_link}</nav>')


def render_page(page: Page, pages: list[Page], i: int, out_dir: Path, log: Callable[[str], None],
                root: Path = ROOT) -> str:
    machine = (f"<code class=\"wb-machine\">{html.escape(page.machine)}</code>" if page.machine
               else "<em>no fingerprint line (the first code cell prints wb.describeMachine())</em>")
    run = (f'<p class="wb-run">Ran on {machine}<br>'
           f'Run ended <span class="wb-date" title="from {html.escape(page.date_source)}">{page.run_date}</span>'
           f' &middot; ran for {duration(page.seconds)}'
           f'{" with the " + html.escape(page.profile) + " profile" if page.profile else ""}</p>')
    header = f'<header class="wb-book wb-top">{_nav(pages, i, "notebooks")}{run}{profile_note(page.profile)}</header>'
    footer = f'<footer class="wb-book wb-bottom">{_nav(pages, i, "notebooks, bottom")}</footer>'
    exporter = HTMLExporter(template_name="lab")
    exporter.raw_template = TEMPLATE
    body, _ = exporter.from_notebook_node(page.nb, resources={
        "metadata": {"name": page.title},
        "book": {"css": PAGE_CSS, "header": header, "footer": footer},
    })
    # Links between notebooks point at their pages.
    body = re.sub(r'href="(?:\.\./notebooks/|\./)?(\d\d-[\w.-]+?)\.ipynb(#[^"]*)?"',
                  lambda m: f'href="{m.group(1)}.html{m.group(2) or ""}"', body)
    body, page.reports = link_reports(body, report_mentions(page.nb), out_dir, page.name, log, root)
    fetched = re.findall(r'<(?:script|link|img)\b[^>]*\b(?:src|href)="(https?:)?//[^"]*"', body)
    if fetched:
        raise BookError(f"{page.name}: the page would fetch from the internet: {fetched[:3]}")
    return body


def profile_note(profile: str) -> str:
    """What a page made from a profile other than full says at its top ("" for full)."""
    if profile == "full":
        return ""
    return (f'<p class="wb-profile">Executed with the <b>{html.escape(profile or "unknown")}</b> profile: shorter loads '
            "and fewer rounds than a learner's run, so its charts have fewer points and its spreads are wider. "
            "<code>make book</code> renders the full profile.</p>")


def render_index(pages: list[Page], missing: list[Page], order: list[str], profile: str = "full") -> str:
    by_name = {p.name: p for p in pages + missing}
    items = []
    for name in order:
        p = by_name[name]
        if p.nb is None:
            items.append(f'<li id="{name}"><h2>{html.escape(p.title)}</h2>'
                         f'<p class="missing">{html.escape(p.how)}: run <code>make book</code> to execute it.</p></li>')
            continue
        intro = markdown2html(p.intro_html) if p.intro_html else ""
        made_with = f", {html.escape(p.profile)} profile" if p.profile else ""
        items.append(
            f'<li id="{name}"><h2><a class="wb-notebook" href="{p.href}">{html.escape(p.title)}</a></h2>{intro}'
            f'<p class="meta">Ran for <b>{duration(p.seconds)}</b>{made_with}; run ended {p.run_date}.</p></li>')
    machines = sorted({p.machine for p in pages if p.machine})
    machine = ("".join(f"<br><code>{html.escape(m)}</code>" for m in machines)) if machines else " (unknown)"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Node Performance Workbook</title>
<style type="text/css">{INDEX_CSS}</style>
</head>
<body>
<h1>Node Performance Workbook</h1>
<p class="lede">The notebooks as they ran, with their charts, tables and flame graphs. Every figure depends
on the machine: read the ratios and the shapes, not the absolute numbers.</p>
<p class="machine">Measured on{machine}</p>
<p class="profile">Rendered from <b>{html.escape(profile)} profile</b> runs; each notebook below says how long it ran.</p>
{profile_note(profile)}
<ol class="curriculum">
{chr(10).join(items)}
</ol>
</body>
</html>
"""


# --------------------------------------------------------------------------- the book

def build(notebooks_dir: Path, executed_dir: Path, out: Path, *, execute: Executor | None = run_notebook,
          only: list[str] | None = None, log: Callable[[str], None] = print, profile: str = "full") -> dict:
    """Build the book into `out` (replaced whole at the end). Returns the manifest written to book.json."""
    started = time.monotonic()
    sources = sorted(notebooks_dir.glob(NOTEBOOK_GLOB))
    if only:
        unknown = [n for n in only if n not in {s.stem for s in sources} | {s.name for s in sources}]
        if unknown:
            raise BookError(f"--only {' '.join(unknown)}: no such notebook (expected one of: "
                            f"{', '.join(s.stem for s in sources)})")
        sources = [s for s in sources if s.stem in only or s.name in only]
    if not sources:
        raise BookError(f"no notebooks matching {NOTEBOOK_GLOB} in {notebooks_dir}")
    pages: list[Page] = []
    missing: list[Page] = []
    failed: list[str] = []
    for source in sources:
        page = Page(source.stem, source)
        try:
            page.nb, page.how, copy = executed_copy(source, executed_dir, execute=execute, log=log, profile=profile)
        except Exception as err:  # a failing notebook: the others still make a book
            log(f"{source.stem}: FAILED: {err}")
            failed.append(source.stem)
            page.how, copy = "not rendered: its execution failed (see the build log)", None
        page.title, page.intro_html = title_and_intro(page.nb if page.nb is not None else nbformat.read(source, as_version=4),
                                                      source.stem)
        if page.nb is None:
            missing.append(page)
            continue
        page.machine = machine_line(page.nb)
        page.profile = profile_of(page.machine)
        page.run_date, page.date_source = run_date(page.nb, copy)
        page.seconds = page.nb.metadata.get("workbook", {}).get("executed_seconds")
        if not page.machine:
            log(f"{page.name}: warning: no line starting {MACHINE_PREFIX!r} in its outputs (the first code cell prints wb.describeMachine())")
        pages.append(page)

    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    staging.chmod(0o755)  # mkdtemp's 0700 would hide the book from a web server run as another user
    try:
        for i, page in enumerate(pages):
            html_page = render_page(page, pages, i, staging, log, notebooks_dir.parent)
            (staging / page.href).write_text(html_page, encoding="utf-8")
        (staging / "index.html").write_text(render_index(pages, missing, [s.stem for s in sources], profile), encoding="utf-8")
        manifest = {
            "notebooks": [s.stem for s in sources],
            "only": list(only) if only else None,
            "profile": profile,
            "pages": [{"name": p.name, "href": p.href, "title": p.title, "how": p.how, "seconds": p.seconds,
                       "machine": p.machine, "run_date": p.run_date, "date_source": p.date_source,
                       "reports": p.reports} for p in pages],
            "missing": [{"name": p.name, "why": p.how} for p in missing],
        }
        (staging / "book.json").write_text(json.dumps(manifest, indent=2) + "\n")
        old = out.with_name(f".{out.name}-old")
        if old.exists():
            shutil.rmtree(old)
        if out.exists():
            out.rename(old)
        staging.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    reports = sum(len(p.reports) for p in pages)
    log(f"wrote {_rel(out / 'index.html')} and {len(pages)} page(s), {reports} clinic report(s), "
        f"in {time.monotonic() - started:.1f} s" + (f"; not rendered: {', '.join(p.name for p in missing)}" if missing else ""))
    manifest["failed"] = failed
    return manifest


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--notebooks", type=Path, default=ROOT / "notebooks")
    ap.add_argument("--executed", type=Path, default=ROOT / "build" / "executed")
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "book")
    ap.add_argument("--no-execute", action="store_true",
                    help="render only the notebooks with an executed copy newer than the notebook")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="these notebooks only (e.g. 00-getting-started)")
    args = ap.parse_args(argv[1:])

    def log(line: str) -> None:
        print(f"book: {line}", flush=True)

    try:
        manifest = build(args.notebooks, args.executed, args.out, execute=None if args.no_execute else run_notebook,
                         only=args.only, log=log, profile=wanted_profile())
    except BookError as err:
        print(f"book: error: {err}", file=sys.stderr)
        return 2
    if manifest["failed"]:
        print(f"book: error: these notebooks failed and are not in the book: {', '.join(manifest['failed'])}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
