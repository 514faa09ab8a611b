'use strict'
// The yardstick (tools/src/diagnose/yardstick.ts) and the rules that read it (verdict.ts), on made-up
// evidence: what a request costs against a bare node:http answer and the framework's hello route,
// measured beside it. Far above the reference a server is never healthy; near it, never blocked,
// whatever the shares of its busy time; what the framework's reference spends in a package is its
// handling, only the excess a finding.
const { test } = require('node:test')
const { tool } = require('./helpers')
const { evidence, LINES, SHARES } = require('./diagnose-evidence')
const { decide } = tool('diagnose/verdict')
const { yardstick, excessShares, costText } = tool('diagnose/yardstick')

const ref = (name, title, ms, busy = null) => ({
  name,
  title,
  version: '5.3.0',
  route: '/hello',
  cpuPerRequestMs: ms,
  reqPerSec: 1 / ms,
  busy,
  server: `taskset -c 1 node apps/frameworks/${name}.js`,
})
const BARE = ref('node-http', 'node:http', 0.025)
// Express's hello route: its own code, its router and Node's handling
const EXPRESS = ref('express', 'Express', 0.06, {
  shares: { gc: 0.02, regex: 0, syncIo: 0, native: 0, app: 0.05, dependency: 0.1, framework: 0.3, node: 0.53 },
  packages: { express: 0.1, router: 0.2, finalhandler: 0.05, 'on-finished': 0.05 },
})
const seenExpress = { package: 'express', reference: 'express', version: '5.3.0' }
const refs = (framework = EXPRESS, seen = seenExpress) => ({ bare: BARE, framework, seen, notes: [] })
const shares = (over) => ({ ...SHARES, gc: 0.02, app: 0, node: 0, ...over })

/** Evidence of a saturated loop whose request costs `ms` of CPU, its busy time as `busy` says. */
function costing(ms, busy, r = refs(), over = {}) {
  const b = { shares: shares(busy.shares), packages: busy.packages ?? {} }
  return evidence({
    elu: 0.99,
    cpuPerRequestMs: ms,
    latencyOverCpu: 10,
    busy: { ...b, busySamples: 1000, regex: null, paths: busy.paths ?? [] },
    yardstick: yardstick(b, ms, r),
    ...over,
  })
}

test('the yardstick: the ratio to the framework reference, and the cost beyond it by kind and by package', (t) => {
  const busy = {
    shares: shares({ app: 0.1, dependency: 0.78, framework: 0.04, node: 0.06 }),
    packages: { 'record-store': 0.75, router: 0.03, express: 0.04 },
  }
  const y = yardstick(busy, 0.6, refs())
  t.assert.strictEqual(y.against, 'framework')
  t.assert.ok(Math.abs(y.ratio - 10) < 1e-9, String(y.ratio))
  // record-store: 0.75 * 0.6 = 0.45 ms, none of it in the reference; the router (the framework's): 0.018 ms
  // against its 0.012, express's own 0.024 against 0.006
  t.assert.ok(Math.abs(y.excessByPackageMs['record-store'] - 0.45) < 1e-9)
  t.assert.ok(Math.abs(y.excessByPackageMs.router - 0.006) < 1e-9)
  t.assert.ok(Math.abs(y.excessMs.dependency - 0.45) < 1e-9, String(y.excessMs.dependency))
  t.assert.ok(Math.abs(y.excessMs.framework - 0.024) < 1e-9, String(y.excessMs.framework))
  t.assert.ok(excessShares(y).dependency > 0.7)
  t.assert.match(
    costText(y),
    /^0\.6 ms of CPU a request: 10\.0x Express 5\.3\.0's hello route \(0\.06 ms\) and 24\.0x a bare node:http answer \(0\.025 ms\)/,
  )
  // no framework measured: the bare answer is the reference
  t.assert.strictEqual(yardstick(busy, 0.6, refs(null, null)).against, 'bare')
  t.assert.strictEqual(yardstick(busy, null, refs()).ratio, null)
})

test("a request far above its framework's reference, spent in a package the router calls: blocked, by that package", (t) => {
  const scan = costing(0.6, {
    shares: { app: 0.01, dependency: 0.83, framework: 0.05, node: 0.09 },
    packages: { 'record-store': 0.8, router: 0.03, express: 0.05 },
  })
  const v = decide(scan, LINES)
  t.assert.deepStrictEqual([v.id, v.cause], ['blocked', 'dependency'], v.lines.join('\n'))
  t.assert.match(v.lines.join('\n'), /CPU per request against Express 5\.3\.0's hello route 10\.0x >= 4\.00x/)
  t.assert.match(
    v.lines.join('\n'),
    /beyond the reference, a request spent: a dependency's code 0\.\d+ ms \(record-store 0\.48 ms/,
  )
  // the same shares at the reference's cost: the router and body parser at work, near the reference: healthy
  const near = costing(0.07, {
    shares: { app: 0.05, dependency: 0.3, framework: 0.3, node: 0.33 },
    packages: { router: 0.2, 'body-parser': 0.1, express: 0.3 },
  })
  t.assert.strictEqual(decide(near, LINES).id, 'healthy', decide(near, LINES).lines.join('\n'))
})

test('a one-line handler that is most of a tiny total is at its reference: healthy, never blocked', (t) => {
  const tiny = costing(0.0175, { shares: { app: 0.6, node: 0.38 } }, refs(null, null))
  const v = decide(tiny, LINES)
  t.assert.strictEqual(v.id, 'healthy', v.lines.join('\n'))
  t.assert.match(
    v.lines.join('\n'),
    /busy serving requests at about its reference's cost: CPU per request against a bare node:http answer 0\.70x < 4\.00x/,
  )
  // the same shares, forty times the cost: the app's code blocks the loop
  t.assert.deepStrictEqual(
    [decide(costing(0.7, { shares: { app: 0.6, node: 0.38 } }, refs(null, null)), LINES).cause],
    ['app'],
  )
})

test('far above its reference, never healthy: the cost beyond it named, even when it went to request handling', (t) => {
  // a large answer written by Node: its handling costs ten bare answers
  const big = costing(0.25, { shares: { app: 0.03, node: 0.95 } }, refs(null, null))
  const v = decide(big, LINES)
  t.assert.deepStrictEqual([v.id, v.cause], ['blocked', 'handling'], v.lines.join('\n'))
  // with headroom (a light load) and no waiting: costly requests, said as such
  const light = costing(0.7, { shares: { app: 0.9, node: 0.08 } }, refs(null, null), { elu: 0.3, latencyOverCpu: 1.2 })
  const l = decide(light, LINES)
  t.assert.deepStrictEqual([l.id, l.cause], ['blocked', 'app'], l.lines.join('\n'))
  t.assert.match(l.title, /^costly requests: the app's own code \(the loop had headroom at this load\)$/)
  // a waiting server stays waiting, whatever it costs
  t.assert.strictEqual(
    decide(costing(0.7, { shares: { app: 0.9 } }, refs(null, null), { elu: 0.3, latencyOverCpu: 80 }), LINES).id,
    'waiting',
  )
})

test('without a yardstick (a platform that cannot read CPU), the shares alone decide, as before', (t) => {
  const e = costing(0.0175, { shares: { app: 0.6, node: 0.38 } }, refs(null, null), { yardstick: null })
  t.assert.strictEqual(decide(e, LINES).cause, 'app')
  const unread = costing(
    0.0175,
    { shares: { app: 0.6, node: 0.38 } },
    { bare: null, framework: null, seen: null, notes: [] },
  )
  t.assert.strictEqual(unread.yardstick.ratio, null)
  t.assert.strictEqual(decide(unread, LINES).cause, 'app')
})

test('synchronous I/O is judged by its share of the busy time, its wall time, whatever a request costs in CPU', (t) => {
  // at its reference's CPU, 40 % of the busy time in readFileSync: the loop waits in it (a cold disk costs no CPU)
  const io = costing(0.03, { shares: { syncIo: 0.4, node: 0.58 } }, refs(null, null))
  t.assert.ok(io.yardstick.ratio < LINES.FAR_ABOVE_REFERENCE)
  t.assert.strictEqual(decide(io, LINES).id, 'sync-io', decide(io, LINES).lines.join('\n'))
  // the same shares in the app's own code: CPU work, near its reference: healthy
  t.assert.strictEqual(
    decide(costing(0.03, { shares: { app: 0.4, node: 0.58 } }, refs(null, null)), LINES).id,
    'healthy',
  )
})
