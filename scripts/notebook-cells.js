'use strict'
// The shape of notebooks' code cells, for tests/notebooks/test_cells.py (and anyone curious):
// per notebook, how many code cells, their length in lines (median, longest), the lines longer than
// the limit, and the nested ternaries (found by TypeScript's own parser, not a pattern).
//   node scripts/notebook-cells.js [--max-line 110] NOTEBOOK...   prints one JSON object per notebook
const fs = require('node:fs')
const { parseArgs } = require('node:util')
const ts = require('typescript')

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'max-line': { type: 'string', default: '110' } },
})
const maxLine = Number(values['max-line'])

/** Conditional expressions that contain another one: "a ? b : c ? d : e". */
function nestedTernaries(source) {
  const file = ts.createSourceFile('cell.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const found = []
  const visit = (node, inside) => {
    const isTernary = ts.isConditionalExpression(node)
    if (isTernary && inside) found.push(node.getText(file).split('\n')[0].slice(0, 80))
    ts.forEachChild(node, (child) => visit(child, inside || isTernary))
  }
  visit(file, false)
  return found
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

for (const path of positionals) {
  const nb = JSON.parse(fs.readFileSync(path, 'utf8'))
  const cells = nb.cells
    .map((c, index) => ({ index, type: c.cell_type, source: [].concat(c.source).join('') }))
    .filter((c) => c.type === 'code')
  const lengths = cells.map((c) => c.source.split('\n').length)
  const longLines = cells.flatMap((c) =>
    c.source
      .split('\n')
      .filter((l) => l.length > maxLine)
      .map((l) => ({ cell: c.index, length: l.length, line: l.slice(0, 80) })),
  )
  const nested = cells.flatMap((c) => nestedTernaries(c.source).map((text) => ({ cell: c.index, text })))
  const longest = Math.max(0, ...lengths)
  process.stdout.write(
    `${JSON.stringify({
      path,
      codeCells: cells.length,
      medianLines: median(lengths),
      longestLines: longest,
      longestCell: cells[lengths.indexOf(longest)]?.index ?? null,
      lines: lengths.reduce((a, b) => a + b, 0),
      longLines,
      nested,
    })}\n`,
  )
}
