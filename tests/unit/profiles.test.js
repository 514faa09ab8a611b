'use strict'
const { test } = require('node:test')
const path = require('node:path')
const h = require('@workbook/harness')
const { running } = require('@workbook/harness/internal')
const { cpuFlame } = require('./helpers').internal('profiles/flame')

const root = path.join(__dirname, '..', '..')
const userUrl = `file://${path.join(root, 'apps', 'x', 'util.js')}`
const frame = (id, functionName, url, lineNumber, children = []) => ({
  id,
  callFrame: { functionName, url, lineNumber, columnNumber: 0 },
  children,
})

// (root) -> handler (user) -> hash (node) -> digest (native)
//        -> handler (user) -> stringify (native)
//        -> (idle), (garbage collector)
const profile = {
  nodes: [
    frame(1, '(root)', '', -1, [2, 6, 7]),
    frame(2, 'afterListener', userUrl, 9, [3, 5]),
    frame(3, 'hash', 'node:internal/crypto/hash', 100, [4]),
    frame(4, 'digest', '', -1),
    frame(5, 'stringify', '', -1),
    frame(6, '(idle)', '', -1),
    frame(7, '(garbage collector)', '', -1),
  ],
  startTime: 0,
  endTime: 1e6,
  samples: [4, 4, 4, 4, 5, 5, 5, 2, 7, 7, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6],
  timeDeltas: new Array(20).fill(1000),
}

test('cpuFlame: shares are of busy samples, natives are attributed to the user frame that called them', (t) => {
  const f = cpuFlame(profile)
  t.assert.strictEqual(f.total, 20)
  t.assert.strictEqual(f.unit, 'samples')
  t.assert.strictEqual(f.idleShare, 0.5)
  t.assert.strictEqual(f.hottestUser.name, 'afterListener')
  t.assert.strictEqual(f.hottestUser.file, path.join('apps', 'x', 'util.js'))
  t.assert.strictEqual(f.hottestUser.line, 10)
  t.assert.strictEqual(f.hottestUser.selfShare, 0.1) // 1 of 10 busy samples on top of the stack
  t.assert.strictEqual(f.hottestUser.totalShare, 0.8)
  t.assert.strictEqual(f.hottestUser.attributedShare, 0.8) // + digest (4) + stringify (3)
  t.assert.deepStrictEqual(Object.fromEntries(Object.entries(f.categories).map(([k, v]) => [k, Math.round(v * 100)])), {
    user: 10,
    dependency: 0,
    node: 0,
    native: 70,
    gc: 20,
    program: 0,
    idle: 0,
  })
  const digest = f.rects.find((r) => r.name === 'digest')
  t.assert.strictEqual(digest.depth, 2)
  t.assert.ok(Math.abs(digest.x1 - digest.x0 - 0.4) < 1e-9)
  t.assert.ok(!f.rects.some((r) => r.name === '(idle)'))
  const chart = h.flameChart(f, { title: 'synthetic' })
  t.assert.match(chart.svg, /afterListener/)
  t.assert.match(chart.text, /afterListener\s+apps\/x\/util\.js:10\s+user/)
})

test('cpuProfile refuses load options it would override, before starting anything', async (t) => {
  const before = running().length
  await t.assert.rejects(
    h.cpuProfile('hello-http', { load: { duration: 30, repeats: 3 } }),
    /opts\.load cannot set repeats, duration: the profile is one run of opts\.seconds/,
  )
  t.assert.strictEqual(running().length, before)
})
