'use strict'
// notebooks/05-micro-optimisations.ts: reading wrk's own report, as the Osgood post printed it.
const path = require('node:path')
const { test } = require('node:test')
const here = require(path.join(__dirname, '..', '..', 'notebooks', '05-micro-optimisations.ts'))

// A report wrk 4.1 printed for the stalling server (apps/hello-stalls) at 10 connections.
const REPORT = `Running 3s test @ http://127.0.0.1:36261/hello
  1 threads and 10 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     5.52ms   11.81ms  51.55ms   87.31%
    Req/Sec    15.86k     5.48k   25.53k    66.67%
  Latency Distribution
     50%  429.00us
     75%    1.28ms
     90%   24.56ms
     99%   48.38ms
  47310 requests in 3.00s, 7.99MB read
Requests/sec:  15754.94
Transfer/sec:      2.66MB`

test("wrkPrinted reads wrk's Latency, Req/Sec and Requests/sec lines, in ms and units", (t) => {
  t.assert.deepStrictEqual(here.wrkPrinted(REPORT), {
    latency: { meanMs: 5.52, stdevMs: 11.81, maxMs: 51.55, withinStdevPct: 87.31 },
    perThread: { mean: 15_860, stdev: 5_480, max: 25_530 },
    reqPerSec: 15_754.94,
  })
  const micro = REPORT.replace('5.52ms   11.81ms', '140.86us  219.40us')
  t.assert.strictEqual(here.wrkPrinted(micro).latency.meanMs, 0.14086)
  t.assert.throws(() => here.wrkPrinted('Running 3s test'), /no Latency line/)
  t.assert.throws(() => here.wrkPrinted(REPORT.replace('5.52ms', '5.52parsecs')), /not a figure wrk prints/)
})

test('wrkTime and wrkMetric print as wrk does, and read back what they print', (t) => {
  t.assert.deepStrictEqual([0.14086, 0.09695, 3.26, 123.57, 1500].map(here.wrkTime), [
    '140.86us',
    '96.95us',
    '3.26ms',
    '123.57ms',
    '1.50s',
  ])
  t.assert.deepStrictEqual([12_690, 45_890, 950].map(here.wrkMetric), ['12.69k', '45.89k', '950.00'])
})

test("meanReading: wrk's figures from its report, autocannon's from the load, each beside 10 / req/s", (t) => {
  const load = (name, report) => ({
    label: name,
    connections: 10,
    reqPerSec: { median: 10_000 },
    latencyMs: { mean: 1.2, stdev: 3, max: 52 },
    generator: { name, report },
  })
  const wrk = here.meanReading(load('wrk', REPORT))
  t.assert.deepStrictEqual([wrk.reqPerSec, wrk.meanMs, wrk.stdevMs, wrk.maxMs], [15_754.94, 5.52, 11.81, 51.55])
  t.assert.strictEqual(wrk.littleMs, 10_000 / 15_754.94)
  const autocannon = here.meanReading(load('autocannon', null))
  t.assert.deepStrictEqual(
    [autocannon.reqPerSec, autocannon.meanMs, autocannon.littleMs, autocannon.maxMs],
    [10_000, 1.2, 1, 52],
  )
})
