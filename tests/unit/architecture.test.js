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
const LAYERS = ['core', 'charts', 'apps', 'load', 'profiles', 'experiments', 'published', 'prose', 'exercises']

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

// The tools (tools/src: the diagnosis, the comparison) sit on top of the harness: they reach it only
// through its entries, the harness never reaches them, and neither tool imports the other.
const toolsSrc = path.join(root, 'tools', 'src')

/** What breaks those rules, as sentences: `files` maps a file to its text. */
function toolViolations(files) {
  const out = []
  for (const [file, text] of files) {
    const specs = [...text.matchAll(/(?:import|export)\s[^;]*?from\s+"([^"]+)"|require\("([^"]+)"\)/g)].map(
      (m) => m[1] ?? m[2],
    )
    const rel = path.relative(root, file)
    const inTools = file.startsWith(toolsSrc + path.sep)
    for (const spec of specs) {
      if (!inTools) {
        if (spec.startsWith('@workbook/tools'))
          out.push(`${rel} imports ${spec} (the harness may not import the tools)`)
        continue
      }
      const entry = /^@workbook\/harness(\/internal|\/exercises)?$/.test(spec)
      if (spec.startsWith('@workbook/harness') && !entry)
        out.push(`${rel} imports ${spec} (not an entry of the harness)`)
      if (spec.startsWith('.')) {
        const to = path.resolve(path.dirname(file), spec)
        const [own, other] = [path.relative(toolsSrc, file), path.relative(toolsSrc, to)].map(
          (p) => p.split(path.sep)[0],
        )
        if (!to.startsWith(toolsSrc + path.sep)) out.push(`${rel} imports ${spec} (outside tools/src)`)
        else if (own !== other && own !== 'index.ts')
          out.push(`${rel} imports ${spec} (${own} may not import ${other})`)
      }
    }
  }
  return out
}

const toolFiles = () => [...sources(toolsSrc), ...sources()].map((f) => [f, fs.readFileSync(f, 'utf8')])

test('the tools reach the harness only through its entries, the harness never reaches them, and neither tool imports the other', (t) => {
  t.assert.ok(sources(toolsSrc).length > 10, 'the tools were read')
  t.assert.deepStrictEqual(toolViolations(toolFiles()), [])
})

test('the tools check fails on the wrong input: a file of the harness, a path out, one tool in another, the harness importing a tool', (t) => {
  const f = (p) => path.join(toolsSrc, p)
  const bad = new Map([
    [
      f('diagnose/x.ts'),
      'import { a } from "@workbook/harness/dist/core/stats";\nimport { b } from "../../../harness/src/core/stats";',
    ],
    [f('compare/y.ts'), 'import { c } from "../diagnose/verdict";\nimport { d } from "@workbook/harness/internal";'],
    [path.join(src, 'core/z.ts'), 'import { e } from "@workbook/tools";'],
  ])
  t.assert.deepStrictEqual(toolViolations(bad), [
    'tools/src/diagnose/x.ts imports @workbook/harness/dist/core/stats (not an entry of the harness)',
    'tools/src/diagnose/x.ts imports ../../../harness/src/core/stats (outside tools/src)',
    'tools/src/compare/y.ts imports ../diagnose/verdict (compare may not import diagnose)',
    'harness/src/core/z.ts imports @workbook/tools (the harness may not import the tools)',
  ])
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
  walk(path.join(root, 'tools', 'src'), (n) => n.endsWith('.ts'))
  return files.map(codeOf).map(namedAsQualified).join('\n')
}

/**
 * `import { a, type B } from "@workbook/harness/internal"` written as the uses it stands for,
 * `internal.a` (`wb.a` for the public entry): the tools import the names they use one by one.
 */
function namedAsQualified(code) {
  const prefix = { '': 'wb', '/internal': 'internal', '/exercises': 'ex' }
  return code.replace(/import\s+\{([^}]*)\}\s+from\s+"@workbook\/harness((?:\/\w+)?)";?/g, (_, names, entry) =>
    names
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n && !n.startsWith('type '))
      .map((n) => `${prefix[entry]}.${n.split(/\s+as\s+/)[0]}`)
      .join('\n'),
  )
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

// What the notebooks and the exercises import from the shared harness: each a "unit" (a notebook with
// the helper module beside it, notebooks/NN-name.ipynb + notebooks/NN-name.ts; an exercise with its
// solution, exercises/NN-x/** + solutions/NN-x/**). Code used by one unit alone lives beside it.
const ENTRY_FILES = { '': 'index.ts', '/exercises': 'exercises/index.ts', '/internal': 'internal.ts' }

/** Each notebook's and each exercise's code, by unit ("notebook 03", "exercise 02-unblock"). */
function unitCode() {
  const units = new Map()
  const add = (unit, file) => units.set(unit, `${units.get(unit) ?? ''}\n${codeOf(file)}`)
  const walk = (dir, keep, unit) => {
    if (!fs.existsSync(dir)) return
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name)
      if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) walk(p, keep, unit ?? e.name)
      else if (!e.isDirectory() && keep(e.name)) add(unit ?? e.name, p)
    }
  }
  const nbDir = path.join(root, 'notebooks')
  for (const e of fs.readdirSync(nbDir, { withFileTypes: true })) {
    const nn = /^(\d\d)-.*\.(ipynb|ts)$/.exec(e.name)
    if (e.isFile() && nn) add(`notebook ${nn[1]}`, path.join(nbDir, e.name))
  }
  for (const top of ['exercises', 'solutions']) {
    const dir = path.join(root, top)
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name), (n) => /\.(ipynb|[cm]?[jt]s)$/.test(n), `exercise ${e.name}`)
    }
  }
  return units
}

/**
 * What each unit imports from the harness: per entry ('' the API, '/exercises', ...), the runtime names it
 * uses, read from `import * as x from "@workbook/harness..."` (then `x.name`), `import { a, b } from ...`
 * (type-only imports left out) and `require('@workbook/harness...')`.
 */
function harnessUses(code) {
  const uses = new Map()
  const use = (entry, names) => uses.set(entry, new Set([...(uses.get(entry) ?? []), ...names]))
  const spec = `["']@workbook\\/harness((?:\\/[^"']*)?)["']`
  for (const m of code.matchAll(new RegExp(`import\\s+\\*\\s+as\\s+(\\w+)\\s+from\\s+${spec}`, 'g'))) {
    use(
      m[2],
      [...code.matchAll(new RegExp(`\\b${m[1]}\\.(\\w+)`, 'g'))].map((u) => u[1]),
    )
  }
  for (const m of code.matchAll(new RegExp(`import\\s+(type\\s+)?\\{([^}]*)\\}\\s+from\\s+${spec}`, 'g'))) {
    const names = m[1] ? [] : m[2].split(',').map((n) => n.trim())
    use(
      m[3],
      names.filter((n) => n && !n.startsWith('type ')).map((n) => n.split(/\s+as\s+/)[0]),
    )
  }
  for (const m of code.matchAll(new RegExp(`(\\w+)\\s*=\\s*require\\(${spec}\\)`, 'g'))) {
    use(
      m[2],
      [...code.matchAll(new RegExp(`\\b${m[1]}\\.(\\w+)`, 'g'))].map((u) => u[1]),
    )
  }
  return uses
}

/**
 * The shared harness as the notebooks and exercises see it: the entries they import, every runtime name of
 * those entries with the units that use it, and what breaks the rules (a unit that imports the internal
 * entry, an entry that is not one, a name used by fewer than two units, more than `most` names in all).
 */
function sharedSurface(units, entryNames, most = 60) {
  const imported = new Set()
  const usedBy = new Map()
  const problems = []
  for (const [unit, code] of units) {
    for (const [entry, names] of harnessUses(code)) {
      if (entry === '/internal')
        problems.push(`${unit} imports @workbook/harness/internal, the tools' and tests' entry`)
      imported.add(entry)
      for (const n of names) usedBy.set(`${entry}:${n}`, new Set([...(usedBy.get(`${entry}:${n}`) ?? []), unit]))
    }
  }
  const unknown = [...imported].filter((e) => !(e in entryNames))
  if (unknown.length) problems.push(`not an entry of the harness: ${unknown.map((e) => `@workbook/harness${e}`)}`)
  const names = [...imported].filter((e) => e in entryNames).flatMap((e) => entryNames[e].map((n) => `${e}:${n}`))
  if (names.length > most) problems.push(`${names.length} runtime names in the entries imported, more than ${most}`)
  for (const n of names.filter((x) => (usedBy.get(x)?.size ?? 0) < 2)) {
    const by = [...(usedBy.get(n) ?? [])]
    problems.push(`${n} is used by ${by.length ? by.join(', ') : 'no notebook or exercise'}, not two`)
  }
  return { imported: [...imported].sort(), names, problems }
}

const entryNames = () =>
  Object.fromEntries(Object.keys(ENTRY_FILES).map((e) => [e, Object.keys(require(`@workbook/harness${e}`))]))

test('the shared harness is shared: every runtime name the notebooks and exercises import is used by two of them, and they are at most 60', (t) => {
  const { imported, names, problems } = sharedSurface(unitCode(), entryNames(), 60)
  t.assert.deepStrictEqual(problems, [])
  t.assert.deepStrictEqual(
    imported,
    ['', '/exercises'],
    "notebooks and exercises import the API and the exercises entry; the internal one is the tools' and tests'",
  )
  t.assert.ok(names.length > 20, `${names.length} names: the usage check read the imports`)
})

test('the sharing check fails on the wrong input: the internal entry, a name one notebook uses, too many names, an unknown entry', (t) => {
  const units = new Map([
    ['notebook 01', 'import * as wb from "@workbook/harness";\nwb.fmt(1); wb.lonely();'],
    [
      'notebook 02',
      'import { fmt, type Spread } from "@workbook/harness";\nimport * as d from "@workbook/harness/dist/x";',
    ],
    ['exercise 01-etag', "const wb = require('@workbook/harness'); wb.fmt(2)"],
    ['notebook 03', 'import * as lesson from "@workbook/harness/internal";\nlesson.startApp();'],
  ])
  const { problems } = sharedSurface(units, { '': ['fmt', 'lonely', 'unused'], '/internal': ['startApp'] }, 3)
  t.assert.deepStrictEqual(problems, [
    "notebook 03 imports @workbook/harness/internal, the tools' and tests' entry",
    'not an entry of the harness: @workbook/harness/dist/x',
    '4 runtime names in the entries imported, more than 3',
    ':lonely is used by notebook 01, not two',
    ':unused is used by no notebook or exercise, not two',
    '/internal:startApp is used by notebook 03, not two',
  ])
})

test('the functions `published` carries beside the studies are shared too: each used by two notebooks, documented', (t) => {
  const { published } = require('@workbook/harness')
  const fns = Object.keys(published).filter((k) => typeof published[k] === 'function')
  t.assert.deepStrictEqual(fns, ['beside', 'claimsTable'])
  const units = unitCode()
  const readme = fs.readFileSync(path.join(root, 'harness', 'README.md'), 'utf8')
  for (const fn of fns) {
    const by = [...units].filter(([, code]) => new RegExp(`\\bwb\\.published\\.${fn}\\(`).test(code)).map(([u]) => u)
    t.assert.ok(by.length >= 2, `published.${fn} is used by ${by.join(', ') || 'none'}, not two`)
    t.assert.ok(readme.includes(`\`published.${fn}\``), `published.${fn} is not in harness/README.md`)
  }
})

test('a name is public or internal, not both', (t) => {
  const names = Object.keys(require('@workbook/harness'))
  const internalNames = Object.keys(require('@workbook/harness/internal'))
  t.assert.deepStrictEqual(
    internalNames.filter((n) => names.includes(n)),
    [],
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

/**
 * What breaks the naming of a notebook's own helpers: a notebook with a helpers file beside it
 * (notebooks/NN-name.ts) that imports it under another name than `here`, and a doc example of the
 * harness that calls `here.` (a notebook's own helper, which a reader of the library cannot call).
 */
function helperNaming(notebooks, harnessFiles) {
  const found = []
  for (const [name, code, hasHelpers] of notebooks) {
    if (!hasHelpers) continue
    const m = code.match(/import \* as (\w+) from \\?"\.\/\d\d-[\w-]+\\?"/)
    if (m?.[1] !== 'here') found.push(`${name} imports its own helpers as ${m ? m[1] : 'nothing'}, not here`)
  }
  for (const [file, text] of harnessFiles) {
    for (const block of text.matchAll(/@example([\s\S]*?)\*\//g))
      if (/\bhere\./.test(block[1])) found.push(`${file}: a doc example calls a notebook's own helper (here.)`)
  }
  return found
}

test('every notebook imports its own helpers as `here`, and no harness doc example calls one', (t) => {
  const nbDir = path.join(root, 'notebooks')
  const notebooks = fs
    .readdirSync(nbDir)
    .filter((f) => /^\d\d-.*\.ipynb$/.test(f))
    .map((f) => [
      f,
      fs.readFileSync(path.join(nbDir, f), 'utf8'),
      fs.existsSync(path.join(nbDir, f.replace('.ipynb', '.ts'))),
    ])
  t.assert.ok(notebooks.filter(([, , h]) => h).length >= 5, 'the notebooks with helpers were found')
  const harness = sources().map((f) => [path.relative(root, f), fs.readFileSync(f, 'utf8')])
  t.assert.deepStrictEqual(helperNaming(notebooks, harness), [])
  // and on the wrong input: notebook 07 as it imported them, a doc example as tables.ts had it
  const wrong = helperNaming(
    [['07-every-core.ipynb', 'import * as local from \\"./07-every-core\\"; // helpers', true]],
    [['charts/tables.ts', '/**\n * @example\n * wb.markdown(wb.markdownTable(here.runRows(first)));\n */']],
  )
  t.assert.deepStrictEqual(wrong, [
    '07-every-core.ipynb imports its own helpers as local, not here',
    "charts/tables.ts: a doc example calls a notebook's own helper (here.)",
  ])
})

/**
 * The names each test file takes from a notebook's helper module (`const m = require('…/NN-x.ts')`
 * then `m.name`, or `const { a, b } = require(…)`) that the module does not export: a split that
 * moved a function beside it leaves such a name behind, and only the test that calls it would see.
 */
const NOTEBOOK_REQUIRE = /const\s+(\w+|\{[^}]*\})\s*=\s*require\('[^']*notebooks\/([\w-]+\.ts)'\)/g

function missingNotebookNames(files, exportsOf) {
  const out = []
  for (const [file, text] of files) {
    for (const m of text.matchAll(NOTEBOOK_REQUIRE)) {
      const [, binding, module] = m
      const names = binding.startsWith('{')
        ? binding
            .slice(1, -1)
            .split(',')
            .map((s) => s.split(':')[0].trim())
            .filter(Boolean)
        : [...new Set([...text.matchAll(new RegExp(`(?<![\\w/.-])${binding}\\.(\\w+)`, 'g'))].map((x) => x[1]))]
      const exported = exportsOf(module)
      for (const name of names) if (!exported.has(name)) out.push(`${file}: ${module} does not export ${name}`)
    }
  }
  return out
}

test("every name a test takes from a notebook's helper module is exported by it", (t) => {
  const files = ['unit', 'integration'].flatMap((dir) =>
    fs
      .readdirSync(path.join(root, 'tests', dir))
      .filter((f) => f.endsWith('.js') && f !== 'architecture.test.js')
      .map((f) => [`tests/${dir}/${f}`, fs.readFileSync(path.join(root, 'tests', dir, f), 'utf8')]),
  )
  const exportsOf = (module) => new Set(Object.keys(require(path.join(root, 'notebooks', module))))
  const used = files.filter(([, text]) => [...text.matchAll(NOTEBOOK_REQUIRE)].length > 0)
  t.assert.ok(used.length >= 10, `the tests that use notebook helpers were found: ${used.length}`)
  t.assert.deepStrictEqual(missingNotebookNames(files, exportsOf), [])
  // and on the wrong input: micro.test.js as it was after 05's benchmark moved to 05-microbench.ts
  const wrong = missingNotebookNames(
    [
      [
        'tests/integration/micro.test.js',
        "const nb05 = require('../../notebooks/05-micro-optimisations.ts')\nnb05.microbench('x')",
      ],
      ['tests/unit/x.test.js', "const { microGain, nothing } = require('../../notebooks/05-microbench.ts')"],
    ],
    exportsOf,
  )
  t.assert.deepStrictEqual(wrong, [
    'tests/integration/micro.test.js: 05-micro-optimisations.ts does not export microbench',
    'tests/unit/x.test.js: 05-microbench.ts does not export nothing',
  ])
})
