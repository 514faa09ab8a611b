'use strict'
// Several routes in one run (tools/src/diagnose/routes.ts): the routes file, each route's load, and
// the ranking by CPU per request against the reference.
const { test } = require('node:test')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { tool } = require('./helpers')
const { readRoutes, routeSpec, loadOf, rankingText, rankingMarkdown } = tool('diagnose/routes')

const root = path.join(__dirname, '..', '..')

test('a routes file: a list or { routes }, each a path or a route with its method and body; what is wrong, said', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'routes-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = (name, value) => {
    const f = path.join(dir, name)
    fs.writeFileSync(f, typeof value === 'string' ? value : JSON.stringify(value))
    return f
  }
  t.assert.deepStrictEqual(
    readRoutes(
      file('a.json', ['/a', { route: '/b', method: 'post', body: { x: 1 } }, { route: '/c', method: 'patch' }]),
    ),
    [
      { route: '/a', method: 'GET' },
      { route: '/b', method: 'POST', body: { x: 1 } },
      { route: '/c', method: 'PATCH' },
    ],
  )
  t.assert.strictEqual(readRoutes(path.join(root, 'notebooks', 'shop', 'routes.json')).length, 4)
  const fails = (f, re) =>
    t.assert.throws(
      () => readRoutes(f),
      (e) => e.code === 'WB_BAD_OPTION' && re.test(e.message),
    )
  fails(file('b.json', { routes: [] }), /holds no routes/)
  fails(file('c.json', ['books']), /route 1 of .*c\.json needs "route", a path that starts with "\/"/)
  fails(file('d.json', [{ route: '/x', method: 'FETCH' }]), /method "FETCH" is not one of GET, POST/)
  fails(file('e.json', '{ not json'), /cannot read the routes file/)
  t.assert.throws(() => routeSpec(42), /needs "route"/)
})

test("a route's load: a JSON body sent as JSON, a string as it is", (t) => {
  t.assert.deepStrictEqual(loadOf({ route: '/o', method: 'POST', body: { book: 7 } }), {
    method: 'POST',
    body: '{"book":7}',
    headers: { 'content-type': 'application/json' },
  })
  t.assert.deepStrictEqual(
    loadOf({ route: '/o', method: 'PUT', body: 'a=1', headers: { 'content-type': 'text/plain' } }),
    {
      method: 'PUT',
      body: 'a=1',
      headers: { 'content-type': 'text/plain' },
    },
  )
  t.assert.deepStrictEqual(loadOf({ route: '/' }), { method: 'GET', headers: {} })
})

test('the ranking: costliest first against the reference, each with its verdict, the reference named', (t) => {
  const y = {
    against: 'framework',
    framework: { name: 'express', title: 'Express', version: '5.3.0', cpuPerRequestMs: 0.06 },
    bare: { name: 'node-http', title: 'node:http', version: '26.10.0', cpuPerRequestMs: 0.025 },
  }
  const route = (name, ms, title) => ({
    name,
    cpuPerRequestMs: ms,
    ratio: ms / 0.06,
    diagnosis: { verdict: { title }, load: { reqPerSec: { median: 1 / ms } }, evidence: { yardstick: y } },
  })
  const ranked = [
    route('GET /search?q=a', 2.4, "loop blocked by the app's own code"),
    route('GET /books/1', 0.07, 'healthy'),
  ]
  const r = { app: 'server', ranked, references: null }
  t.assert.match(
    rankingText(r),
    /^routes of server, costliest first against Express 5\.3\.0's hello route \(0\.06 ms a request; far above it from [\d.]+x\):\n {2}1\. GET \/search\?q=a +2\.40 ms +40\.0x +loop blocked by the app's own code\n {2}2\. GET \/books\/1 +0\.07 ms +1\.17x +healthy$/,
  )
  t.assert.match(rankingMarkdown(r), /\| 1 \| GET \/search\?q=a \| 2\.40 \| 40\.0x \|/)
})
