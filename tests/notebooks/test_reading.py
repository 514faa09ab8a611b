"""Read the executed notebooks as a learner does (build/executed/, written by test_notebooks.py just
before): what they print must agree with itself and work where the learner is.

- A reveal ("this run measured **0.93x**") is a number of the table it sits with (its own cell's
  output or the next code cell's), or the ratio of two of its numbers, or (a reveal in its own unit,
  such as MB) their difference, each within the rounding of the numbers shown: never a figure the
  learner cannot find beside it.
- No output prints `null`, `undefined` or `NaN` (outside code), a path into a test runner's temporary
  folder, or a range whose two ends are equal ("0.948-0.948": one run is "one run").
- Every cell that runs a load or a profile prints a command (a shell block) in its own output or the
  next code cell's; no printed command runs a bare `node` (whatever Node the learner's PATH holds, not
  the workbook's pinned one), and no output holds the checkout's own folder.
- A comparison's words agree with the interval printed with it (wb.compared marks its sentences): an
  interval that excludes 1x is never hedged ("if anything", "a few percent", "no difference"), one that
  holds 1x never called faster or slower, and a bound ("at most 1.08x") that the measurement exceeds is
  said to be exceeded.
- A whole number of four digits or more, in prose or a table (Markdown) or a check's line, has its
  thousands separated, as wb.fmt writes it: "8,535", never "8535" beside a table's "8,535". Years, a
  pid, a URL's query and code are not counts.
"""
from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
EXECUTED = ROOT / "build" / "executed"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))

REVEAL = re.compile(r"this run (?:measured|gave) \*\*(-?[\d,]*\.?\d+)\s*(x|%)?")
# A number as prose prints it: "1,234", "0.92x" (a ratio), "241." (a sentence's end); not part of a word.
NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?:(?=x\b)|(?!\w|\.\d))")
FENCE = re.compile(r"```.*?```", re.S)
COMMENT = re.compile(r"<!--.*?-->", re.S)
INLINE = re.compile(r"`[^`\n]*`")
UNKNOWN = re.compile(r"\b(null|undefined|NaN)\b")
TEMP = re.compile(r"pytest-of-|/tmp/|\btmp[a-z0-9_]{6,}\b")
SAME_ENDS = re.compile(r"(?<![\d.,\-–])(\d[\d,]*(?:\.\d+)?)(x| ms| %| MB)?\s?[–-]\s?\1\2?(?![\d.])")
# A whole number of 4+ digits not grouped: not in a word, path, version, date, query (=), decimal or pid.
UNGROUPED = re.compile(r"(?<![\w.,:/#@=+-])(?<!pid )\d{4,}(?![\w:/-]|[.,]\d)")
YEAR = re.compile(r"(19|20)\d\d")
LINK = re.compile(r"\]\([^)]*\)|https?://\S+")
MARKER = re.compile(r"<!--wb:comparison kind=(\w+) median=(\S+) low=(\S+) high=(\S+) n=(\d+) noise=(\S+) level=(\S+)-->")
# An interval as prose prints one: "95 % interval 1.06x–1.21x", "range 1.52x–2.60x", "allow 0.98x–1.03x".
INTERVAL = re.compile(r"(?:interval|range|allow)\s+(-?\d[\d,]*(?:\.\d+)?)x[–-](-?\d[\d,]*(?:\.\d+)?)x")
HEDGE = re.compile(r"\b(if anything|a few percent|no difference|not clear)\b", re.I)
VERDICT = re.compile(r"\b(faster|slower|better|worse|it shows)\b", re.I)
AT_MOST = re.compile(r"\bat most (\d[\d,]*(?:\.\d+)?)x")
MEDIAN = re.compile(r"(\d[\d,]*(?:\.\d+)?)x \(median of")
SH_BLOCK = re.compile(r"```sh\n(.*?)```", re.S)
# A command line's first program, past environment assignments, a subshell's `cd ... &&` and taskset.
BARE_NODE = re.compile(r"""^\(?(?:cd \S+ && )?(?:[A-Z_][A-Z0-9_]*=(?:'[^']*'|"[^"]*"|\S+) )*(?:taskset -c \S+ )?node(?:\s|$)""")
CHECK_LINE = re.compile(r"^(ok|FAIL|skipped)\b")
RUNS_A_LOAD = re.compile(r"\b(runLoad|interleavedLoads|contentionRounds|pacedLoad|freshLoad|cpuProfile|"
                         r"heapProfile|heapSnapshots|watchMemory|clinicDoctor|diagnose|compare|autocannon)\(")


def texts(cell) -> list[str]:
    """What a learner reads of a code cell's outputs: markdown, else plain text; and printed streams."""
    out = []
    for o in cell.get("outputs", []):
        data = o.get("data", {})
        text = data.get("text/markdown") or data.get("text/plain") or o.get("text") or ""
        out.append(text if isinstance(text, str) else "".join(text))
    return out


def numbers(text: str) -> list[float]:
    return [float(n.replace(",", "")) for n in NUMBER.findall(text)]


def half_unit(shown: str) -> float:
    """Half a unit of the last digit shown: how far a rounded number may be from the one it rounds."""
    return 10 ** -len(shown.split(".")[1]) / 2 if "." in shown else 0.5


def shown_numbers(text: str) -> list[tuple[float, float]]:
    """Each number with how far it may be from the figure it rounds, for a figure fmt printed (3 significant
    digits or more); 0 for the rest: a count ("0 of 3 runs"), a line number, a share shown as "0.4 %"."""
    def room(n: str) -> float:
        significant = len(n.lstrip("-").replace(",", "").replace(".", "").lstrip("0"))
        return half_unit(n) if significant >= 3 else 0
    return [(float(n.replace(",", "")), room(n)) for n in NUMBER.findall(text)]


def close(a: float, b: float, digits: float) -> bool:
    return abs(a - b) <= max(abs(b) * 0.006, digits)


def reveal_problems(cells) -> list[str]:
    """Every reveal whose number is neither a number of its table nor a ratio of two of them."""
    found = []
    code = [c for c in cells if c.cell_type == "code"]
    for i, cell in enumerate(code):
        for text in texts(cell):
            for m in REVEAL.finditer(text):
                shown, unit = m.group(1), m.group(2) or ""
                value = float(shown.replace(",", ""))
                digits = half_unit(shown)
                beside = [t for t in texts(cell) + (texts(code[i + 1]) if i + 1 < len(code) else []) if t != text]
                table = [n for t in beside for n in numbers(t)]
                rounded = [n for t in beside for n in shown_numbers(t)]
                if not table:
                    found.append(f"cell {cell.id}: the reveal {shown}{unit} sits with no table")
                    continue
                scale = 100 if unit == "%" else 1
                direct = any(close(n, value, digits) for n in table)
                # each figure of the table was rounded for it (fmt: 3 significant digits), and so is their ratio
                ratio = any(abs(scale * a / b - value) <= max(abs(value) * 0.006, digits)
                            + abs(scale * a / b) * (da / abs(a) + db / abs(b))
                            for a, da in rounded for b, db in rounded if a != b and a and b)
                # "peak at 100 connections minus at 10": each end was rounded for the table
                difference = not unit and any(abs(a - b - value) <= da + db + digits
                                              for a, da in rounded for b, db in rounded if a != b)
                if not (direct or ratio or difference):
                    found.append(f"cell {cell.id}: the reveal {shown}{unit} is no number of its table, nor a ratio or difference of two")
    return found


def text_problems(cells) -> list[str]:
    found = []
    for cell in cells:
        if cell.cell_type != "code":
            continue
        for text in texts(cell):
            prose = COMMENT.sub("", INLINE.sub("", FENCE.sub("", text)))  # what a learner reads: no HTML comment
            found += [f"cell {cell.id}: prints {m.group(0)!r}: …{prose[max(0, m.start() - 60):m.end() + 20]}…"
                      for m in UNKNOWN.finditer(prose)]
            # a comparison's marker is read back by comparison_problems: an unknown there is a number lost
            found += [f"cell {cell.id}: a comparison's marker holds {u!r}: {m.group(0)}"
                      for m in MARKER.finditer(text) for u in UNKNOWN.findall(" ".join(m.groups()))]
            found += [f"cell {cell.id}: a temporary folder: …{text[max(0, m.start() - 60):m.end() + 40]}…"
                      for m in TEMP.finditer(text)]
            found += [f"cell {cell.id}: a range with equal ends: {m.group(0)!r}" for m in SAME_ENDS.finditer(prose)]
    return found


def prose_of(cell) -> list[str]:
    """What the workbook itself wrote: Markdown outputs and the checks' lines (not a tool's own output)."""
    out = []
    for o in cell.get("outputs", []):
        if "text/markdown" in o.get("data", {}):
            out.append(o["data"]["text/markdown"])
        elif o.get("output_type") == "stream":
            out += [line for line in o.get("text", "").splitlines() if CHECK_LINE.match(line)]
    return [LINK.sub("", INLINE.sub("", FENCE.sub("", "".join(t)))) for t in out]


def ungrouped_problems(cells) -> list[str]:
    found = []
    for cell in cells:
        if cell.cell_type != "code":
            continue
        for prose in prose_of(cell):
            found += [f"cell {cell.id}: {m.group(0)} is printed without its thousands separated (wb.fmt): "
                      f"…{prose[max(0, m.start() - 60):m.end() + 20]}…"
                      for m in UNGROUPED.finditer(prose) if not YEAR.fullmatch(m.group(0))]
    return found


def command_problems(cells) -> list[str]:
    code = [c for c in cells if c.cell_type == "code"]
    found = []
    for i, cell in enumerate(code):
        if not RUNS_A_LOAD.search(INLINE.sub("", cell.source)):
            continue
        near = texts(cell) + (texts(code[i + 1]) if i + 1 < len(code) else [])
        if not any("```sh" in t for t in near):
            found.append(f"cell {cell.id} runs a load or a profile and prints no command: {cell.source[:80]!r}")
    return found


def bare_node_problems(cells) -> list[str]:
    """Every printed command line that runs a bare `node`: pasted, it runs the learner's own Node."""
    found = []
    for cell in cells:
        if cell.cell_type != "code":
            continue
        for text in texts(cell):
            for block in SH_BLOCK.findall(text):
                found += [f"cell {cell.id}: a bare node: {line!r}" for line in block.splitlines() if BARE_NODE.match(line)]
    return found


def path_problems(cells, root: Path = ROOT) -> list[str]:
    """Every output that holds the checkout's absolute folder: it prints what only this clone has."""
    found = []
    for cell in cells:
        if cell.cell_type != "code":
            continue
        for text in texts(cell):
            at = text.find(str(root) + "/")
            if at >= 0:
                found.append(f"cell {cell.id}: the checkout's folder: …{text[max(0, at - 60):at + 60]}…")
    return found


def segments(text: str) -> list[str]:
    """A text cut where a comparison's words stop counting for it: paragraphs, list items, and each marker."""
    parts = re.split(r"\n\s*\n|\n(?=[-*] )|(?=<!--wb:comparison )", text)
    return [p for p in parts if p.strip()]


def ratio_kind(median: float, low: float, high: float, n: int, noise: float, level: float | None) -> str:
    """wb.compared's rule, written again: what the evidence lets a sentence say."""
    if n > 1 and level is not None and level < 0.9:  # a range of four values or fewer
        return "few"
    if n == 1 and low != low:  # NaN: one value, no interval
        return "one"
    if low <= 1 <= high:
        return "same"
    if median > 1 + noise:
        return "more"
    return "less" if median < 1 / (1 + noise) else "noise"


def comparison_problems(cells) -> list[str]:
    """Every comparison whose words claim more, or less, than the interval printed with it."""
    found = []
    for cell in cells:
        if cell.cell_type != "code":
            continue
        for text in texts(cell):
            for seg in segments(FENCE.sub("", text)):
                marker = MARKER.search(seg)
                words = MARKER.sub("", seg)
                printed = INTERVAL.findall(words)
                intervals = [(float(a.replace(",", "")), float(b.replace(",", ""))) for a, b in printed]
                where = f"cell {cell.id}: …{words[:160]}…"
                if marker:
                    kind, median, low, high, n, noise, level = marker.groups()
                    # "none": a bound there is none of (one value: no interval)
                    median, low, high, noise = (float("nan") if v == "none" else float(v) for v in (median, low, high, noise))
                    if ratio_kind(median, low, high, int(n), noise, None if level == "none" else float(level)) != kind:
                        found.append(f"{where} marked {kind}, but its numbers say otherwise")
                    if printed and not any(close(low, float(a.replace(",", "")), half_unit(a))
                                           and close(high, float(b.replace(",", "")), half_unit(b)) for a, b in printed):
                        found.append(f"{where} prints an interval that is not its own ({low:.3g}x–{high:.3g}x)")
                    excludes = kind in ("more", "less")
                else:
                    if not intervals:
                        continue
                    excludes = all(b < 1 or a > 1 for a, b in intervals)
                if excludes and HEDGE.search(words):
                    found.append(f"{where} hedges ({HEDGE.search(words).group(0)!r}) an interval that excludes 1x")
                if not excludes and (marker or all(a <= 1 <= b for a, b in intervals)) and VERDICT.search(words):
                    found.append(f"{where} says {VERDICT.search(words).group(0)!r} of an interval that holds 1x")
                medians = ([median] if marker else []) + [float(m.replace(",", "")) for m in MEDIAN.findall(words)]
                for bound in AT_MOST.findall(words):
                    if any(m > float(bound.replace(",", "")) for m in medians) and "above" not in words:
                        found.append(f"{where} calls {bound}x a ceiling that the measurement exceeds")
    return found


def executed(path: Path):
    copy = EXECUTED / path.name
    if not copy.exists():
        pytest.fail(f"{copy.relative_to(ROOT)} is missing: test_notebooks.py writes it (make test-notebooks-executed)")
    return nbformat.read(copy, as_version=4).cells


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_what_the_learner_reads_agrees_with_itself(path):
    cells = executed(path)
    problems = (reveal_problems(cells) + text_problems(cells) + command_problems(cells) + ungrouped_problems(cells)
                + bare_node_problems(cells) + path_problems(cells) + comparison_problems(cells))
    assert problems == [], "\n".join(problems)


# The same reading, on the wrong input: each rule fails where it must.

def nb(*cells):
    out = []
    for i, (source, outputs) in enumerate(cells):
        c = nbformat.v4.new_code_cell(source)
        c.id = f"cell-{i:02d}"
        c.outputs = [nbformat.v4.new_output("display_data", data={"text/markdown": t}) for t in outputs]
        out.append(c)
    return out


TABLE = "| generator | req/s |\n|---|---:|\n| autocannon | 75,972 |\n| wrk | 78,105 |"


def test_a_reveal_that_no_number_of_its_table_gives_fails():
    # notebook 00 before this check: the per-round median ratio revealed beside the medians' table
    wrong = nb(("wb.reveal(g, ratio)", ['You made no guess for "wrk over autocannon"; this run measured **0.93x**.']),
               ("wb.markdown(table)", [TABLE]))
    assert reveal_problems(wrong) == ["cell cell-00: the reveal 0.93x is no number of its table, nor a ratio or difference of two"]
    right = nb(("wb.reveal(g, ratio)", ['You made no guess for "x"; this run measured **1.03x**.']), ("t", [TABLE]))
    assert reveal_problems(right) == []
    # notebook 03 on CI: the peak at 100 connections minus at 10, two rows of its table, rounded there
    peaks = "| | RSS peak MB |\n|---|---:|\n| Express, 10 conn | 97.9 |\n| Express, 100 conn | 97.3 |"
    difference = nb(("wb.reveal(g, d)", ['You made no guess for "x"; this run measured **-0.586 MB**.']), ("t", [peaks]))
    assert reveal_problems(difference) == []
    far = nb(("wb.reveal(g, d)", ['You made no guess for "x"; this run measured **-0.786 MB**.']), ("t", [peaks]))
    assert reveal_problems(far) == ["cell cell-00: the reveal -0.786 is no number of its table, nor a ratio or difference of two"]
    # two rounded numbers: 100.49 / 1.0051 is 99.98, revealed as 100x beside a table showing 100 and 1.01
    rounded = "| | µs |\n|---|---:|\n| churn | 100 |\n| quiet | 1.01 |"
    both = nb(("wb.reveal(g, r)", ['You made no guess for "x"; this run measured **100x**.']), ("t", [rounded]))
    assert reveal_problems(both) == []
    off = nb(("wb.reveal(g, r)", ['You made no guess for "x"; this run measured **102x**.']), ("t", [rounded]))
    assert reveal_problems(off) != [], "2 % off is no rounding of 100 / 1.01"
    as_ratio = nb(("wb.reveal(g, d)", ['You made no guess for "x"; this run measured **-0.60x**.']), ("t", [peaks]))
    assert reveal_problems(as_ratio) != [], "a difference is no ratio"
    alone = nb(("wb.reveal(g, 3)", ['You made no guess for "x"; this run measured **3.00x**.']))
    assert reveal_problems(alone) == ["cell cell-00: the reveal 3.00x sits with no table"]


def test_unknowns_temporary_folders_and_equal_ranges_fail_outside_code():
    cells = nb(("x", ["the primary used null ms", "see ../../pytest-of-root/pytest-3/results/a.html",
                      "1.40x (median of 2 rounds, 0.948x–0.948x)", "```sh\nnode -e 'x ?? null'\n```",
                      "replace `null` with your guess", "on 2026-11-11, 1.2-1.3x"]))
    found = text_problems(cells)
    assert len(found) == 3, found
    assert "prints 'null'" in found[0] and "a temporary folder" in found[1] and "0.948x–0.948x" in found[2]


def test_a_count_printed_without_its_thousands_separated_fails():
    # CI run 8's executed notebooks: 00's and 07's checks, 02's sentence and a table cell fmt rounded to "1000"
    wrong = nb(("x", ["| 4.72 | 1000 | 96 |", "the next row's interval is 2,718 ms instead of 1000, and"]))
    wrong[0].outputs.append(nbformat.v4.new_output("stream", text="ok      each request counted once: the workers 8535, "
                                                                   "the generator 8434 + 1 before the load\n"))
    found = ungrouped_problems(wrong)
    assert [f.split(":")[1].split()[0] for f in found] == ["1000", "1000", "8535", "8434"], found
    right = nb(("x", ["| worker pid 21379 | 4,325 |", "GET /primes?n=10000 on 2026-11-28", "| osgood 0.1.0 | 25261.70 |",
                      "```sh\nPORT=38113 node server.js\n```", "`results/a-1795887166917/x.html`", "8,535 requests",
                      "[report](../results/diagnose/s-1795887690805/report.html)", "Node v26.10.0, 999 of 1,000"]))
    right[0].outputs.append(nbformat.v4.new_output("stream", text="[20581:0x352dd000]     3617 ms: Mark-Compact\n"))
    assert ungrouped_problems(right) == []


def test_a_load_without_a_command_fails():
    cells = nb(("const r = await wb.runLoad({ target: app });", ["Throughput: 5 req/s"]), ("wb.show(chart)", []))
    assert len(command_problems(cells)) == 1
    cells = nb(("const r = await wb.runLoad({ target: app });", []), ("x", ["```sh\nwrk -c10 URL\n```"]))
    assert command_problems(cells) == []


def test_a_comparison_that_claims_more_or_less_than_its_interval_fails():
    # notebook 05's request lesson as a clean-clone run printed it (issue 47): hedged and capped, over an
    # interval that excludes 1x and a median above the cap
    lesson = ("**GET /stock/42**: the serialiser 1 % of the busy CPU, 2.00x faster on its own; the etag 6 % of the busy "
              "CPU, 7.00x faster on its own. Predicted: **1.06x**. Measured: after served 1.14x (median of 7 rounds, "
              "95 % interval 1.06x–1.21x) before's requests per second: the load generator kept up in every round, so "
              "the req/s ratio measures both servers. **Only a few percent under load, if anything:** the optimised "
              "code was only 7 % of each request's CPU time, so even making it free could give at most 1.08x.")
    found = comparison_problems(nb(("wb.markdown(lesson)", [lesson])))
    assert any("hedges ('a few percent')" in f for f in found), found
    assert any("calls 1.08x a ceiling" in f for f in found), found
    # the same lesson as wb.compared writes it now
    marked = ("Measured: By requests per second, <!--wb:comparison kind=more median=1.14 low=1.06 high=1.21 n=7 "
              "noise=0.02 level=0.95-->after was faster than before by 14 %: 1.14x (median of 7 rounds, 95 % interval "
              "1.06x–1.21x). **It shows under load:** the optimised code was 7 % of each request's CPU time. The "
              "measured median lies above 1.08x, what making both parts free would give by their shares.")
    assert comparison_problems(nb(("x", [marked]))) == []
    # an interval that holds 1x called faster; a marker whose numbers say another kind; an interval not its own
    same = "<!--wb:comparison kind=same median=1.02 low=0.97 high=1.08 n=20 noise=0.02 level=0.95-->it was faster: 1.02x (median of 20 rounds, 95 % interval 0.97x–1.08x)"
    wrong_kind = same.replace("kind=same", "kind=more").replace("it was faster", "faster by 2.0 %")
    not_its_own = same.replace("0.97x–1.08x", "0.87x–1.08x").replace("it was faster", "no difference this run could see")
    assert [len(comparison_problems(nb(("x", [t])))) for t in (same, wrong_kind, not_its_own)] == [1, 1, 1]
    # two values judged by their range: a list item of its own is a segment of its own
    items = ("- <!--wb:comparison kind=more median=1.65 low=1.58 high=1.71 n=7 noise=0.02 level=0.95-->Fastify was faster than "
             "Express by 65 %: 1.65x (median of 7 rounds, 95 % interval 1.58x–1.71x).\n- <!--wb:comparison kind=same "
             "median=1.02 low=0.99 high=1.05 n=7 noise=0.02 level=0.95-->no difference between node:http and Polka this run could "
             "see: 1.02x (median of 7 rounds, 95 % interval 0.99x–1.05x).")
    assert comparison_problems(nb(("x", [items]))) == []
    # one value: no interval, its bounds "none" (a NaN would be printed to the reader)
    one = "<!--wb:comparison kind=one median=1.2 low=none high=none n=1 noise=0.02 level=none-->a over b: 1.20x from one round: no interval, so no verdict"
    assert comparison_problems(nb(("x", [one]))) == [] and text_problems(nb(("x", [one]))) == []
    assert len(comparison_problems(nb(("x", [one.replace("kind=one", "kind=more")])))) == 1
    assert len(text_problems(nb(("x", [one.replace("low=none", "low=NaN")])))) == 1


def test_an_absolute_path_or_a_bare_node_in_an_output_fails():
    root = Path("/tmp/tmp.abc123/wb")
    printed = nb(("x", [f"```sh\nPORT=1 taskset -c 1 node --cpu-prof-dir={root}/results/p apps/a/server.js\n```",
                        f"    at attachAfterEvent ({root}/apps/etag-warning/util.js:31:14)"]))
    assert len(path_problems(printed, root)) == 2
    assert len(bare_node_problems(printed)) == 1
    typed = nb(("x", ["```sh\nPORT=1 taskset -c 1 node_modules/node/bin/node apps/a/server.js\n"
                      "(cd exercises/x && PORT=2 ../../node_modules/node/bin/node server.js)\n"
                      "WORKBOOK_WRK_STATUSES=1 taskset -c 0 wrk -t1 URL\n```",
                      "```sh\n(cd notebooks/your-server && PORT=2 node server.js)\nX='a b' node s.js\n```"]))
    assert path_problems(typed, root) == []
    assert [p.split(": ", 2)[2] for p in bare_node_problems(typed)] == [
        "'(cd notebooks/your-server && PORT=2 node server.js)'", "\"X='a b' node s.js\""]
