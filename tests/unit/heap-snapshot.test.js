'use strict'
// Reading heap snapshots (harness/src/profiles/heap-snapshot.ts, heap-diff.ts) on real ones: a child
// process of the pinned Node grows a module-level Map of Entry objects between two snapshots.
const { test, before, after } = require('node:test')
const assert = require('node:assert')
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { internal } = require('./helpers')

const { readHeapSnapshot, heapGroups, heapGrowth, retainerIndex, retainerPath, newNodesOf } =
  internal('profiles/heap-snapshot')
const { diffSnapshots } = internal('profiles/heap-diff')
const { retainerText } = internal('prose/findings')
const { WorkbookError } = internal('core/errors')

const NODE = path.join(__dirname, '..', '..', 'node_modules', 'node', 'bin', 'node')

// The leaking module: what a learner's server looks like, a module-level Map that a function registered
// on an emitter fills. It is a module of its own, apart from the script that writes the snapshots, so
// that the Map is held by the module, not by the code running when a snapshot is written.
const APP = `'use strict'
class Entry {
  constructor(i) {
    this.id = i
    this.at = i * 2
    this.a = 1
    this.b = 2
    this.c = 3
    this.d = 4
  }
}
const audit = new Map()
function record(n) {
  const from = audit.size
  for (let i = from; i < from + n; i++) audit.set(i, new Entry(i))
}
process.on('audit:record', record)
`

// Each step on a turn of the event loop of its own.
const DRIVER = `'use strict'
const v8 = require('node:v8')
const [before, after] = process.argv.slice(2)
require('./app')
const steps = [
  () => process.emit('audit:record', 2000),
  () => v8.writeHeapSnapshot(before),
  () => process.emit('audit:record', 2000),
  () => v8.writeHeapSnapshot(after),
]
const next = () => steps.length && (steps.shift()(), setImmediate(next))
setImmediate(next)
`

// No special V8 flags: a concurrent compile job of record() still pending when a snapshot is written
// holds record's context in a handle scope, which made the shortest path to every Entry start there in
// about 3 runs in 10 before retainerPath learnt to walk around transient roots (the last test, by hand).
const FLAGS = []

let dir
let files
let snap

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heap-snapshot-test-'))
  fs.writeFileSync(path.join(dir, 'app.js'), APP)
  fs.writeFileSync(path.join(dir, 'driver.js'), DRIVER)
  files = [path.join(dir, 'before.heapsnapshot'), path.join(dir, 'after.heapsnapshot')]
  const args = [...FLAGS, path.join(dir, 'driver.js'), ...files]
  const r = spawnSync(NODE, args, { cwd: dir, timeout: 20000, encoding: 'utf8' })
  assert.strictEqual(r.status, 0, `the snapshot script failed: ${r.error ?? ''} ${r.stderr}`)
  snap = { before: readHeapSnapshot(files[0]), after: readHeapSnapshot(files[1]) }
})

after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

test('heapGroups counts the objects alive by constructor', (t) => {
  const b = heapGroups(snap.before)
  const a = heapGroups(snap.after)
  t.assert.strictEqual(b.get('Entry').count, 2000)
  t.assert.strictEqual(a.get('Entry').count, 4000)
  t.assert.strictEqual(a.get('Entry').bytes, 2 * b.get('Entry').bytes)
  t.assert.ok(b.get('Entry').bytes >= 2000 * 16, `2,000 objects of 6 fields take ${b.get('Entry').bytes} bytes`)
  t.assert.ok(a.get('Map').count >= 1)
  // every node is in exactly one group
  const total = [...a.values()].reduce((n, g) => n + g.count, 0)
  t.assert.strictEqual(total, snap.after.nodeCount)
})

test('heapGrowth names Entry first: 2,000 more objects, where nothing else gained even 200', (t) => {
  const growth = heapGrowth(snap.before, snap.after)
  const [top] = growth
  t.assert.strictEqual(top.name, 'Entry', JSON.stringify(growth.slice(0, 3)))
  t.assert.deepStrictEqual([top.countBefore, top.countAfter, top.count], [2000, 4000, 2000])
  t.assert.ok(top.bytes > 0)
  for (const g of growth.slice(1)) t.assert.ok(g.count < 200, `${g.name} gained ${g.count} objects`)
  // sorted by the bytes gained, and cut to `top`
  t.assert.deepStrictEqual(
    growth.map((g) => g.bytes),
    [...growth.map((g) => g.bytes)].sort((x, y) => y - x),
  )
  t.assert.strictEqual(heapGrowth(snap.before, snap.after, 3).length, 3)
  // the other way round, Entry is what shrank most
  t.assert.strictEqual(heapGrowth(snap.after, snap.before, 1000).at(-1).name, 'Entry')
})

test('newNodesOf finds exactly the Entry objects made between the two snapshots', (t) => {
  const fresh = newNodesOf(snap.after, snap.before, 'Entry')
  t.assert.strictEqual(fresh.length, 2000)
  const old = new Set(snap.before.id)
  t.assert.ok(fresh.every((i) => !old.has(snap.after.id[i])))
  t.assert.deepStrictEqual(newNodesOf(snap.after, snap.after, 'Entry'), [])
})

test('the retainer path of a new Entry reaches the module-level variable `audit`, a Map', (t) => {
  const index = retainerIndex(snap.after)
  const fresh = newNodesOf(snap.after, snap.before, 'Entry')
  for (const node of [fresh[0], fresh.at(-1)]) {
    const steps = retainerPath(snap.after, node, index)
    const shown = steps.map((s) => `${s.holder} -${s.edgeType}:${s.edge}->`).join(' ')
    t.assert.strictEqual(steps[0].holder, '(GC roots)', shown)
    const k = steps.findIndex((s) => s.edgeType === 'context' && s.edge === 'audit')
    t.assert.ok(k >= 0, `no context variable "audit" on the path: ${shown}`)
    t.assert.match(steps[k].holder, /Context/)
    t.assert.strictEqual(steps[k + 1].holder, 'Map', shown)
    // past the Map, only its internal table: no other variable or property holds the Entry
    t.assert.ok(
      steps.slice(k + 1).every((s) => s.edgeType !== 'context' && s.edgeType !== 'property'),
      shown,
    )
    const text = retainerText(steps)
    t.assert.match(text, /hang off \*\*`audit`\*\*, a \*\*Map\*\*/)
  }
})

test('diffSnapshots traces the group that grew to the variable that holds it', (t) => {
  const diff = diffSnapshots(files[0], files[1])
  t.assert.strictEqual(diff.traced, 'Entry')
  t.assert.strictEqual(diff.growth[0].name, 'Entry')
  t.assert.ok(diff.held.of > 1, JSON.stringify(diff.held))
  t.assert.strictEqual(diff.held.by, diff.held.of, 'every sampled Entry is held the same way')
  t.assert.ok(
    diff.path.some((s) => s.edgeType === 'context' && s.edge === 'audit'),
    JSON.stringify(diff.path),
  )
})

const NODE_TYPES = ['hidden', 'array', 'string', 'object', 'code', 'closure', 'regexp', 'number', 'native', 'synthetic']
const EDGE_TYPES = ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak']

/**
 * A .heapsnapshot written by hand. nodes: [name, type, id, size], node 0 the root; edges: [from, type,
 * name (or element index), to]. The fields are in an order other than V8's, to check they are read by name.
 */
function writeSnapshot(file, nodes, edges) {
  const strings = ['']
  const str = (v) => (strings.includes(v) ? strings.indexOf(v) : strings.push(v) - 1)
  const nf = 5
  const sorted = [...edges].sort((a, b) => a[0] - b[0])
  const snapshot = {
    snapshot: {
      meta: {
        node_fields: ['name', 'type', 'edge_count', 'id', 'self_size'],
        node_types: [NODE_TYPES, 'string', 'number', 'number', 'number'],
        edge_fields: ['name_or_index', 'type', 'to_node'],
        edge_types: [EDGE_TYPES, 'string_or_number', 'node'],
      },
      node_count: nodes.length,
    },
    nodes: nodes.flatMap(([name, type, id, size], i) => [
      str(name),
      NODE_TYPES.indexOf(type),
      edges.filter((e) => e[0] === i).length,
      id,
      size,
    ]),
    edges: sorted.flatMap(([, type, name, to]) => [
      typeof name === 'number' ? name : str(name),
      EDGE_TYPES.indexOf(type),
      to * nf,
    ]),
    strings,
  }
  fs.writeFileSync(file, JSON.stringify(snapshot))
}

test('a weak reference keeps nothing alive; fields are found by name, in any order', (t) => {
  const file = path.join(dir, 'hand.heapsnapshot')
  writeSnapshot(
    file,
    [
      ['', 'synthetic', 1, 0],
      ['(GC roots)', 'synthetic', 3, 0],
      ['Holder', 'object', 5, 32],
      ['Leaf', 'object', 7, 24],
      ['Ghost', 'object', 9, 1000],
    ],
    [
      [0, 'element', 1, 1],
      [1, 'element', 1, 2],
      [2, 'property', 'kept', 3],
      [2, 'weak', 'ghost', 4],
    ],
  )
  const s = readHeapSnapshot(file)
  t.assert.strictEqual(s.nodeCount, 5)
  t.assert.deepStrictEqual([...s.id], [1, 3, 5, 7, 9])
  t.assert.deepStrictEqual(heapGroups(s).get('Ghost'), { name: 'Ghost', count: 1, bytes: 1000 })
  t.assert.deepStrictEqual(retainerPath(s, 3), [
    { holder: '(GC roots)', edge: '[1]', edgeType: 'element' },
    { holder: 'Holder', edge: 'kept', edgeType: 'property' },
  ])
  t.assert.deepStrictEqual(retainerPath(s, 4), [])
  t.assert.match(retainerText(retainerPath(s, 4)), /it was garbage/)
})

test('a truncated, non-JSON or missing file is a WB_NO_REPORT error that names the file', (t) => {
  const truncated = path.join(dir, 'truncated.heapsnapshot')
  fs.writeFileSync(truncated, fs.readFileSync(files[0]).subarray(0, 4096))
  const text = path.join(dir, 'notes.heapsnapshot')
  fs.writeFileSync(text, 'heap snapshot written at 12:00\n')
  for (const file of [truncated, text, path.join(dir, 'missing.heapsnapshot')]) {
    t.assert.throws(
      () => readHeapSnapshot(file),
      (err) => err instanceof WorkbookError && err.code === 'WB_NO_REPORT' && err.message.includes(file),
      file,
    )
  }
})

test('JSON that is not a heap snapshot (a CPU profile given by mistake) is a WorkbookError too', (t) => {
  const file = path.join(dir, 'profile.cpuprofile')
  fs.writeFileSync(file, JSON.stringify({ nodes: [], samples: [], startTime: 0, endTime: 1 }))
  t.assert.throws(
    () => readHeapSnapshot(file),
    (err) => err instanceof WorkbookError && err.code === 'WB_NO_REPORT' && err.message.includes(file),
  )
})

test('diffSnapshots still traces a growing Map when a handle scope also holds its module (a pending compile job)', (t) => {
  // (Global handles) -> process.onRecord -> function record -> Context.audit -> Map -> Entry x 2,
  // and (Handle scope) -> the same Context: shorter, as when record() waits for a concurrent compile.
  const common = [
    ['', 'synthetic', 1, 0],
    ['(GC roots)', 'synthetic', 3, 0],
    ['(Handle scope)', 'synthetic', 5, 0],
    ['(Global handles)', 'synthetic', 7, 0],
    ['process', 'object', 9, 64],
    ['record', 'closure', 11, 32],
    ['system / Context', 'object', 13, 40],
    ['Map', 'object', 15, 32],
  ]
  const links = [
    [0, 'element', 1, 1],
    [1, 'element', 1, 2],
    [1, 'element', 2, 3],
    [2, 'internal', '0', 6],
    [3, 'internal', '0', 4],
    [4, 'property', 'onRecord', 5],
    [5, 'internal', 'context', 6],
    [6, 'context', 'audit', 7],
  ]
  const before = path.join(dir, 'hand-before.heapsnapshot')
  const later = path.join(dir, 'hand-after.heapsnapshot')
  writeSnapshot(before, common, links)
  writeSnapshot(
    later,
    [...common, ['Entry', 'object', 101, 4000], ['Entry', 'object', 103, 4000]],
    [...links, [7, 'element', 0, 8], [7, 'element', 1, 9]],
  )
  const diff = diffSnapshots(before, later)
  t.assert.strictEqual(diff.growth[0].name, 'Entry')
  t.assert.strictEqual(diff.traced, 'Entry')
  t.assert.ok(diff.path.some((s) => s.edge === 'audit'))
})
