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

test("flagsOf reads a generator's own flags, not taskset's, in either spelling", (t) => {
  t.assert.deepStrictEqual(nb03.flagsOf('wrk -t12 -c500 -d5m --latency'), {
    tool: 'wrk',
    threads: 12,
    connections: 500,
    seconds: 300,
  })
  t.assert.deepStrictEqual(nb03.flagsOf('wrk -d 10m -t 4 -c 20 http://<server>:<port>/blog'), {
    tool: 'wrk',
    threads: 4,
    connections: 20,
    seconds: 600,
  })
  const ran =
    'taskset -c 1 wrk -t1 -c100 -d3s --latency --timeout 10s -s harness/wrk/report.lua http://127.0.0.1:1/json'
  t.assert.deepStrictEqual(nb03.flagsOf(ran), { tool: 'wrk', threads: 1, connections: 100, seconds: 3 })
  t.assert.deepStrictEqual(nb03.flagsOf('oha -c 450 -z 10s'), {
    tool: 'oha',
    threads: null,
    connections: 450,
    seconds: 10,
  })
})

test('differences names each flag that changed, and nothing where the commands agree', (t) => {
  const ran = (command, durationSeconds) => ({ command, durationSeconds })
  const d = nb03.differences('wrk -t12 -c500 -d5m --latency', ran('taskset -c 1 wrk -t1 -c500 -d3s --latency', 3))
  t.assert.strictEqual(d.length, 2, d.join('; '))
  t.assert.match(d[0], /^1 wrk thread, not 12/)
  t.assert.match(d[1], /^3 s a run, not 300 s/)
  t.assert.deepStrictEqual(nb03.differences('wrk -t1 -c20 -d3s', ran('wrk -t1 -c20 -d3s', 3)), [])
  const oha = nb03.differences('oha -c 450 -z 10s', ran('wrk -t1 -c450 -d10s', 10))
  t.assert.strictEqual(oha.length, 1, oha.join('; '))
  t.assert.match(oha[0], /^wrk in place of oha/)
})

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
