'use strict'
// The helpers that live beside a notebook (notebooks/NN-name.ts: what one notebook alone uses), loaded the
// way tslab does not need to: Node 26 strips their types. Deterministic: recorded figures, no live process.
const fs = require('node:fs')
const path = require('node:path')
const { test } = require('node:test')

const nb02 = require('../../notebooks/02-event-loop.ts')

const run = (p99, lagP99, cpu, answers = [300, 6]) => ({
  cheap: { totalRequests: answers[0], sendLagMs: { p99: lagP99 } },
  background: { totalRequests: answers[1] },
  metrics: { resolutionMs: 10, histogram: { p99 }, cpu },
})

test("rowFigures: each row's loop delay above the monitor's resolution, the generator's lateness, the CPU split per answer", (t) => {
  const r = {
    runs: [
      run(14, 1.5, { processMs: 612, mainThreadMs: 153 }),
      run(12, 2.5, { processMs: 918, mainThreadMs: 306 }),
      run(9, 0.5, { processMs: 306, mainThreadMs: 153 }),
    ],
  }
  const f = nb02.rowFigures(r)
  // delays above 10 ms: 4, 2, 0 -> 2; lateness 1.5, 2.5, 0.5 -> 1.5; 306 answers per run
  t.assert.deepStrictEqual([f.loopDelayP99Ms, f.generatorLateP99Ms], [2, 1.5])
  t.assert.strictEqual(Math.round(f.mainThreadUs), 500) // 153 ms / 306, 306 / 306, 153 / 306 -> 500 µs
  t.assert.strictEqual(Math.round(f.otherThreadsUs), 1500) // 459, 612, 153 ms / 306 -> 1500 µs
  // No main-thread reading (an older Node): no split, never a zero.
  const none = nb02.rowFigures({ runs: [run(14, 1, { processMs: 612, mainThreadMs: null })] })
  t.assert.deepStrictEqual([none.mainThreadUs, none.otherThreadsUs], [null, null])
})

test('threadIds finds a thread of this process by its name; moveThreads refuses a thread that is not there', (t) => {
  if (process.platform !== 'linux') return t.skip('needs /proc')
  const main = fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/comm`, 'utf8').trim()
  t.assert.ok(nb02.threadIds(process.pid, main).includes(process.pid), `the main thread, named ${main}`)
  t.assert.deepStrictEqual(nb02.threadIds(process.pid, 'no such thread'), [])
  t.assert.throws(
    () => nb02.moveThreads({ name: 'x', pid: process.pid }, 'no such thread', '0'),
    /has no thread named no such thread/,
  )
})

test('statsDir gives an empty folder under build/07-every-core, as a path from the workbook, and readStats reads it back', (t) => {
  const nb07 = require('../../notebooks/07-every-core.ts')
  const { repoRoot } = require('@workbook/harness')
  const name = `test-${process.pid}`
  const abs = path.join(repoRoot, 'build', '07-every-core', name)
  t.after(() => fs.rmSync(abs, { recursive: true, force: true }))
  const dir = nb07.statsDir(name)
  t.assert.strictEqual(path.resolve(repoRoot, dir), abs)
  t.assert.ok(!path.isAbsolute(dir), dir)
  const stats = { mode: 'cluster', role: 'worker', pid: 7, requests: 3, cpuMs: 1, rssMB: 40 }
  fs.writeFileSync(path.join(abs, '7.json'), JSON.stringify(stats))
  t.assert.deepStrictEqual(
    nb07.readStats(dir).map((s) => s.requests),
    [3],
  )
  t.assert.strictEqual(nb07.statsDir(name), dir)
  t.assert.deepStrictEqual(fs.readdirSync(abs), [], 'what an earlier run left is removed')
})

const nb03 = require('../../notebooks/03-frameworks.ts')

test("the body POSTed to /validate and the routes' sizes come from the apps' own payloads.js", (t) => {
  const payloads = require('../../apps/frameworks/lib/payloads.js')
  const body = JSON.parse(nb03.validateRequestBody())
  t.assert.deepStrictEqual(body, payloads.SAMPLE_VALID_BODY)
  t.assert.ok(body.items.length > 0, 'an order with line items')
  const sizes = nb03.payloadSizes()
  t.assert.deepStrictEqual(Object.keys(sizes), ['hello', 'json', 'blog'])
  t.assert.strictEqual(sizes.hello, Buffer.byteLength(payloads.HELLO_TEXT))
  t.assert.strictEqual(sizes.json, Buffer.byteLength(JSON.stringify(payloads.helloObject())))
  t.assert.ok(sizes.blog > sizes.json, `a blog post (${sizes.blog} B) is bigger than /json's ${sizes.json} B`)
})

const nb05 = require('../../notebooks/05-micro-optimisations.ts')

test("the Osgood post's claims read from its own rows: 3.07x, its stdev 45x smaller, its mean 0.44x and max 1.38x Node's", (t) => {
  const f = nb05.osgoodFigures()
  t.assert.deepStrictEqual(
    [f.gain, f.stdevFell, f.meanOfNode, f.maxOfNode].map((x) => Number(x.toFixed(2))),
    [3.07, 45.17, 0.44, 1.38],
  )
  const text = nb05.osgoodFiguresText()
  t.assert.match(text, /0\.2\.1 served 3\.07x the req\/s of 0\.1\.0 \(the post says 3\.0x\)/)
  t.assert.match(text, /fell from 9\.91ms to 219\.40us, 45\.2x/)
  t.assert.match(text, /its maximum 1\.38x Node's \(15\.27ms against 11\.08ms\)/)
})

test('gcMaxText bounds the share of the maximum a GC pause explains, and says so when there was none', (t) => {
  const watch = (longestMs, counts) => ({
    load: { connections: 10, latencyMs: { max: 8, mean: 0.4 } },
    gc: { longestMs, totalMs: 12, share: 0.004, perSecond: 1, perRequestUs: 1 },
    rows: counts.map((gcCount) => ({ gcCount })),
  })
  const text = nb05.gcMaxText(watch(2, [3, 4]))
  t.assert.match(text, /wrk's maximum 8 ms, its mean 0\.4 ms\. In the same load the server paused 7 times/)
  t.assert.match(text, /the longest 2 ms: at most 25 % of the maximum was a collection's pause/)
  t.assert.match(nb05.gcMaxText(watch(20, [1])), /at most 100 % of the maximum/)
  t.assert.match(nb05.gcMaxText(watch(0, [0, 0])), /no pause, so none of the maximum was a collection's/)
})
