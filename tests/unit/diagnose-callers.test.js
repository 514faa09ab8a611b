'use strict'
// Whose busy time a sample is (tools/src/diagnose/callers.ts, paths.ts): the code that asked for it,
// on CPU profiles made up here as V8 writes them: Node's library calls under the app's frame are the
// app's, its HTTP calls are Node's handling, a package the framework's router calls is that package's,
// and each path runs from the first frame of the code that asked to the leaf, with the app's line.
const { test } = require('node:test')
const path = require('node:path')
const { madeUpProfile, tool } = require('./helpers')
const { busyTime } = tool('diagnose/busy')
const { callerOf, callLine, heaviestPath } = tool('diagnose/callers')
const { pathText } = tool('diagnose/paths')

const root = path.join(__dirname, '..', '..')
const app = `file://${path.join(root, 'srv.js')}`
const nm = (pkg, file) => `file://${path.join(root, 'node_modules', pkg, file)}`
const cf = (functionName, url = '', lineNumber = 0) => ({ functionName, url, lineNumber, columnNumber: 0 })
const frame = (name, file, line, category) => ({ name, file, line, category })

// (root) -> parserOnIncoming (node:_http_server) -> emit (node:events) -> {
//   handler (srv.js:10) -> { settings (srv.js:20) -> structuredClone (native), end (node:_http_outgoing) -> writev,
//                             inspect (node:internal/util/inspect) -> formatValue -> formatList }
//   handle (express) -> handle (router) -> getById (record-store:20) -> find (:11) -> matches (:6)
//   handle (express) -> handle (router) -> jsonParser (body-parser) }
const nodes = [
  { id: 1, callFrame: cf('(root)'), children: [2, 20] },
  { id: 2, callFrame: cf('parserOnIncoming', 'node:_http_server', 1100), children: [3] },
  { id: 3, callFrame: cf('emit', 'node:events', 500), children: [4, 12] },
  { id: 4, callFrame: cf('handler', app, 9), children: [5, 7, 9] },
  { id: 5, callFrame: cf('settings', app, 19), children: [6] },
  { id: 6, callFrame: cf('structuredClone') },
  { id: 7, callFrame: cf('end', 'node:_http_outgoing', 1000), children: [8] },
  { id: 8, callFrame: cf('writev') },
  { id: 9, callFrame: cf('inspect', 'node:internal/util/inspect', 300), children: [10] },
  { id: 10, callFrame: cf('formatValue', 'node:internal/util/inspect', 800), children: [11] },
  { id: 11, callFrame: cf('formatList', 'node:internal/util/inspect', 1200) },
  { id: 12, callFrame: cf('handle', nm('express', 'lib/application.js'), 170), children: [13] },
  { id: 13, callFrame: cf('handle', nm('router', 'index.js'), 130), children: [14, 17] },
  { id: 14, callFrame: cf('getById', nm('record-store', 'index.js'), 19), children: [15] },
  { id: 15, callFrame: cf('find', nm('record-store', 'index.js'), 10), children: [16] },
  { id: 16, callFrame: cf('matches', nm('record-store', 'index.js'), 5) },
  { id: 17, callFrame: cf('jsonParser', nm('body-parser', 'lib/types/json.js'), 80) },
  { id: 20, callFrame: cf('(idle)') },
]
// 30 structuredClone, 10 Node's writing (res.end under the handler), 15 util.inspect, 35 the scan in record-store,
// 5 body-parser's, 5 the router's own: 100 busy; and 10 idle
const profile = madeUpProfile(nodes, [
  [6, 30],
  [8, 10],
  [11, 15],
  [16, 20],
  [15, 10],
  [14, 5],
  [17, 5],
  [13, 5],
  [20, 10],
])
const source = [
  "const http = require('node:http')",
  ...Array(7).fill(''),
  '',
  'function handler(req, res) {', // line 10
  '  const s = settings()',
  '  log(util.inspect(s, { depth: 6 }))',
  '  res.end(JSON.stringify(s))',
  '}',
  ...Array(5).fill(''),
  'function settings() {', // line 20
  '  const copy = structuredClone(config)',
  '  return copy',
  '}',
]

test("a Node library call under the app's frame is the app's; its HTTP calls are Node's handling", (t) => {
  const b = busyTime(profile, () => source)
  t.assert.strictEqual(b.busySamples, 100)
  const share = (n) => n / 100
  t.assert.deepStrictEqual(
    [b.shares.app, b.shares.node, b.shares.dependency, b.shares.framework],
    [share(45), share(10), share(40), share(5)],
  )
  t.assert.deepStrictEqual(b.packages, { 'record-store': share(35), 'body-parser': share(5), router: share(5) })
})

test('each path runs from the first frame of the code that asked to the leaf, with who called it and the line', (t) => {
  const { paths } = busyTime(profile, () => source)
  const show = (p) => ({
    kind: p.kind,
    package: p.package,
    share: p.share,
    path: pathText(p.frames),
    calledBy: p.calledBy && `${p.calledBy.name} ${p.calledBy.file}:${p.calledBy.line}`,
    line: p.line && `${p.line.file}:${p.line.line} ${p.line.text}`,
  })
  t.assert.deepStrictEqual(paths.map(show), [
    {
      kind: 'app',
      package: null,
      share: 45 / 100,
      // settings holds 30 of the handler's 45 (at least half), so the path goes on down to structuredClone
      path: 'handler (srv.js:10) → settings → structuredClone (native)',
      calledBy: null,
      line: 'srv.js:21 const copy = structuredClone(config)',
    },
    {
      kind: 'dependency',
      package: 'record-store',
      share: 35 / 100,
      path: 'getById (node_modules/record-store/index.js:20) → find → matches (node_modules/record-store/index.js:6)',
      calledBy: 'handle node_modules/router/index.js:131',
      line: null,
    },
    {
      kind: 'dependency',
      package: 'body-parser',
      share: 5 / 100,
      path: 'jsonParser (node_modules/body-parser/lib/types/json.js:81)',
      calledBy: 'handle node_modules/router/index.js:131',
      line: null,
    },
    {
      kind: 'framework',
      package: 'router',
      share: 5 / 100,
      path: 'handle (node_modules/router/index.js:131)',
      calledBy: 'handle node_modules/express/lib/application.js:171',
      line: null,
    },
  ])
})

test("callerOf: the innermost frame of the app's or a package's code asks, the outermost of a run of packages; Node's frames and the probe never do", (t) => {
  const f = (name, file, category) => frame(name, file, 1, category)
  const stack = [
    f('formatList', 'node:internal/util/inspect', 'node'),
    f('inspect', 'node:internal/util/inspect', 'node'),
    f('handler', 'srv.js', 'user'),
    f('emit', 'node:events', 'node'),
  ]
  t.assert.deepStrictEqual(callerOf(stack), { kind: 'app', owner: 2, head: 2, calledBy: -1, package: null })
  // res.end under the same handler: Node's handling
  const end = [f('writev', '', 'native'), f('end', 'node:_http_outgoing', 'node'), ...stack.slice(2)]
  t.assert.strictEqual(callerOf(end).kind, 'node')
  // the probe's timer is none of the app's code
  t.assert.strictEqual(callerOf([f('sample', 'harness/preload/probe.cjs', 'user')]).kind, 'node')
  // a package called by the app: the package's, called by the app's handler
  const lib = [f('compile', 'node_modules/ajv/lib/core.js', 'dependency'), ...stack.slice(2)]
  t.assert.deepStrictEqual(callerOf(lib), { kind: 'dependency', owner: 0, head: 0, calledBy: 1, package: 'ajv' })
  // a package another package called is the outer one's, up to the framework that called it: pug's
  // lexer under pug's compile under express's render is pug's work, called by express
  const template = [
    f('callLexerFunction', 'node_modules/pug-lexer/index.js', 'dependency'),
    f('compile', 'node_modules/pug/lib/index.js', 'dependency'),
    f('readFileSync', 'node:fs', 'node'),
    f('renderFile', 'node_modules/pug/lib/index.js', 'dependency'),
    f('render', 'node_modules/express/lib/view.js', 'dependency'),
    ...stack.slice(2),
  ]
  t.assert.deepStrictEqual(callerOf(template), { kind: 'dependency', owner: 0, head: 3, calledBy: 4, package: 'pug' })
  // a framework's package under another framework stays its own (the router under express)
  const routed = [
    f('handle', 'node_modules/router/index.js', 'dependency'),
    f('handle', 'node_modules/express/lib/application.js', 'dependency'),
    stack[3],
  ]
  t.assert.deepStrictEqual(callerOf(routed), { kind: 'framework', owner: 0, head: 0, calledBy: 1, package: 'router' })
})

test("callLine names the function's one line that calls the callee, and nothing when it cannot tell", (t) => {
  const fn = frame('handler', 'srv.js', 10, 'user')
  t.assert.deepStrictEqual(callLine(source, fn, 'inspect'), {
    file: 'srv.js',
    line: 12,
    text: 'log(util.inspect(s, { depth: 6 }))',
  })
  t.assert.strictEqual(callLine(source, fn, 'structuredClone'), null) // not in this function: settings's
  t.assert.strictEqual(callLine([...source.slice(0, 12), '  inspect(s)', ...source.slice(12)], fn, 'inspect'), null) // two
  t.assert.strictEqual(callLine(null, fn, 'inspect'), null)
  t.assert.strictEqual(callLine(source, fn, '(anonymous)'), null)
})

test('heaviestPath follows the callee that holds at least half of the samples so far; pathText shortens the middle', (t) => {
  const a = frame('a', 'x.js', 1, 'user')
  const [b, c, d] = ['b', 'c', 'd'].map((n) => frame(n, 'node:x', 2, 'node'))
  const path3 = heaviestPath([
    { frames: [a, b, c], samples: 6 },
    { frames: [a, b, d], samples: 3 },
    { frames: [a, d], samples: 1 },
  ])
  t.assert.deepStrictEqual(
    path3.map((f) => f.name),
    ['a', 'b', 'c'],
  )
  const split = heaviestPath([
    { frames: [a, b], samples: 4 },
    { frames: [a, c], samples: 4 },
    { frames: [a], samples: 2 },
  ])
  t.assert.deepStrictEqual(
    split.map((f) => f.name),
    ['a'],
  )
  const long = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6'].map((n, i) => frame(n, i ? 'node:x' : 'srv.js', i + 1, 'user'))
  t.assert.strictEqual(pathText(long), 'f1 (srv.js:1) → f2 → … 2 frames … → f5 → f6 (node:x:6)')
})
