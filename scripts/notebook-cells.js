'use strict'
// The shape of notebooks' code cells, for tests/notebooks/test_cells.py (and anyone curious):
// per notebook, how many code cells, their length in lines (median, longest), the lines longer than
// the limit, the nested ternaries, and the shorthand properties that name an earlier cell's variable
// (found by TypeScript's own parser, not a pattern).
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
  const file = parse(source)
  const found = []
  const visit = (node, inside) => {
    const isTernary = ts.isConditionalExpression(node)
    if (isTernary && inside) found.push(node.getText(file).split('\n')[0].slice(0, 80))
    ts.forEachChild(node, (child) => visit(child, inside || isTernary))
  }
  visit(file, false)
  return found
}

/** Names a cell declares at its top level (what tslab turns into `exports.name` for later cells). */
function topLevelNames(file) {
  const names = []
  for (const st of file.statements) {
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text)
    } else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) names.push(st.name.text)
  }
  return names
}

/** Shorthand properties ({ first }) naming an earlier cell's variable: tslab leaves them unrewritten,
 * and the cell fails with "ReferenceError: first is not defined" when it runs. */
function shorthandOfEarlier(file, earlier) {
  const found = []
  const visit = (node) => {
    if (ts.isShorthandPropertyAssignment(node) && earlier.has(node.name.text)) found.push(node.name.text)
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

const parse = (source) => ts.createSourceFile('cell.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)

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
  const earlier = new Set()
  const shorthand = []
  for (const c of cells) {
    const file = parse(c.source)
    for (const name of shorthandOfEarlier(file, earlier)) shorthand.push({ cell: c.index, name })
    for (const name of topLevelNames(file)) earlier.add(name)
  }
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
      shorthand,
    })}\n`,
  )
}
