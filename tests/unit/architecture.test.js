'use strict'
// The helper library's shape (harness/src): folders by responsibility, imports pointing one way
// (a folder imports only from itself and the folders below it), no import cycle, and a public API
// whose every name is used outside the harness and documented in harness/README.md.
const { test } = require('node:test')
const fs = require('node:fs')
const path = require('node:path')

const root = path.join(__dirname, '..', '..')
const src = path.join(root, 'harness', 'src')
// Lowest first. index.ts and exercises/index.ts sit on top.
const LAYERS = [
  'core',
  'charts',
  'apps',
  'load',
  'profiles',
  'diagnose',
  'compare',
  'experiments',
  'published',
  'prose',
  'exercises',
]

function sources(dir = src) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) return sources(p)
    return e.name.endsWith('.ts') ? [p] : []
  })
}

/** Every relative import of a file (type-only imports too), resolved to a file. */
function imports(file) {
  const text = fs.readFileSync(file, 'utf8')
  const specs = [...text.matchAll(/(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"|require\("(\.[^"]+)"\)/g)].map(
    (m) => m[1] ?? m[2],
  )
  return specs.map((s) => {
    const base = path.resolve(path.dirname(file), s)
    return [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f)) ?? base
  })
}

const layerOf = (file) => path.relative(src, file).split(path.sep)[0]

/** The layering rule, on a graph of file -> imported files: the violations, as sentences. */
function layerViolations(graph) {
  const out = []
  for (const [file, deps] of graph) {
    const from = layerOf(file)
    if (ENTRIES.includes(from)) continue
    for (const dep of deps) {
      const to = layerOf(dep)
      if (LAYERS.indexOf(to) > LAYERS.indexOf(from) || ENTRIES.includes(to)) {
        out.push(`${path.relative(src, file)} imports ${path.relative(src, dep)} (${from} may not import ${to})`)
      }
    }
  }
  return out
}

/** A cycle in the graph, as a list of files, or null. */
function findCycle(graph) {
  const state = new Map()
  const stack = []
  const visit = (f) => {
    if (state.get(f) === 'done') return null
    if (state.get(f) === 'open') return stack.slice(stack.indexOf(f)).concat(f)
    state.set(f, 'open')
    stack.push(f)
    for (const d of graph.get(f) ?? []) {
      const c = visit(d)
      if (c) return c
    }
    stack.pop()
    state.set(f, 'done')
    return null
  }
  for (const f of graph.keys()) {
    const c = visit(f)
    if (c) return c
  }
  return null
}

const graph = new Map(sources().map((f) => [f, imports(f)]))

// The entry points: the public API, the internal entry (one lesson's, a script's or a sample's helpers).
const ENTRIES = ['index.ts', 'internal.ts']

test('every module of the harness sits in a folder of a known layer', (t) => {
  const stray = [...graph.keys()].filter((f) => !LAYERS.includes(layerOf(f)) && !ENTRIES.includes(layerOf(f)))
  t.assert.deepStrictEqual(
    stray.map((f) => path.relative(src, f)),
    [],
  )
})

test('imports point one way: each folder imports only from itself and the folders below it', (t) => {
  t.assert.deepStrictEqual(layerViolations(graph), [])
})

test('no import cycle, type-only imports included', (t) => {
  t.assert.strictEqual(findCycle(graph), null)
})

test('the checks fail on the wrong input: an upward import and a cycle are found', (t) => {
  const f = (p) => path.join(src, p)
  const bad = new Map([
    [f('core/stats.ts'), [f('load/run.ts')]],
    [f('load/run.ts'), [f('core/stats.ts')]],
  ])
  t.assert.match(layerViolations(bad)[0], /core\/stats\.ts imports load\/run\.ts \(core may not import load\)/)
  t.assert.deepStrictEqual(
    findCycle(bad)?.map((p) => path.relative(src, p)),
    ['core/stats.ts', 'load/run.ts', 'core/stats.ts'],
  )
})

// The public API: the names index.ts exports, each used outside the harness and documented.
function exportedNames(file) {
  const text = fs.readFileSync(file, 'utf8')
  return [...text.matchAll(/export (type )?\{([^}]+)\}/g)].flatMap((m) =>
    m[2]
      .split(',')
      .map((n) => ({
        name: n
          .trim()
          .split(/\s+as\s+/)
          .pop(),
        type: Boolean(m[1]),
      }))
      .filter((n) => n.name),
  )
}

/** A file's code: a notebook's code cells (its markdown is not code), any other file whole. */
function codeOf(file) {
  const text = fs.readFileSync(file, 'utf8')
  if (!file.endsWith('.ipynb')) return text
  return JSON.parse(text)
    .cells.filter((c) => c.cell_type === 'code')
    .map((c) => (Array.isArray(c.source) ? c.source.join('') : c.source))
    .join('\n')
}

function usageText() {
  const files = []
  const walk = (dir, keep) => {
    if (!fs.existsSync(dir)) return
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name)
      if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) walk(p, keep)
      else if (keep(e.name)) files.push(p)
    }
  }
  walk(path.join(root, 'notebooks'), (n) => /\.(ipynb|ts)$/.test(n))
  walk(path.join(root, 'solutions'), (n) => /\.(ipynb|js)$/.test(n))
  walk(path.join(root, 'scripts'), (n) => /\.(js|mjs)$/.test(n))
  walk(path.join(root, 'harness', 'samples'), (n) => n.endsWith('.js'))
  walk(path.join(root, 'docs'), (n) => n.endsWith('.js'))
  return files.map(codeOf).join('\n')
}

test("a name only a notebook's markdown mentions is not used: the usage check reads code cells", (t) => {
  const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'workbook-usage-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const nb = path.join(dir, 'x.ipynb')
  const cells = [
    { cell_type: 'markdown', source: ['Call `wb.onlyInProse()` to...'] },
    { cell_type: 'code', source: ['wb.inCode();\n'] },
  ]
  fs.writeFileSync(nb, JSON.stringify({ cells }))
  const code = codeOf(nb)
  t.assert.match(code, /\bwb\.inCode\b/)
  t.assert.doesNotMatch(code, /onlyInProse/)
})

test('the public API is small enough to hold in your head: at most 60 runtime names', (t) => {
  const names = Object.keys(require('@workbook/harness'))
  t.assert.ok(names.length <= 60, `${names.length} runtime names: ${names.join(', ')}`)
  const internalNames = Object.keys(require('@workbook/harness/internal'))
  t.assert.deepStrictEqual(
    internalNames.filter((n) => names.includes(n)),
    [],
    'a name is public or internal, not both',
  )
})

for (const [entry, prefix] of [
  ['index.ts', '(?:wb|h)'],
  ['internal.ts', '(?:lesson|internal)'],
  ['exercises/index.ts', '(?:ex|wb)'],
]) {
  test(`every runtime name of ${entry} is used by a notebook, an exercise, a script or a sample, and documented`, (t) => {
    const used = usageText()
    const readme = fs.readFileSync(path.join(root, 'harness', 'README.md'), 'utf8')
    const names = exportedNames(path.join(src, entry))
    t.assert.ok(names.length > 5)
    const unused = names
      .filter((n) => !n.type && !new RegExp(`\\b${prefix}\\.${n.name}\\b`).test(used))
      .map((n) => n.name)
    t.assert.deepStrictEqual(unused, [], 'exported but used nowhere outside the harness')
    const undocumented = names.filter((n) => !n.type && !readme.includes(`\`${n.name}`)).map((n) => n.name)
    t.assert.deepStrictEqual(undocumented, [], 'exported but not in harness/README.md')
  })
}
