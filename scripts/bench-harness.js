'use strict'
// `make bench-harness`: measure the harness itself. The same node:http app, loaded 5 times in
// one run (after one warm-up), at 100 connections; prints the median, the spread and whether
// the load generator saturated. Durations follow WORKBOOK_PROFILE.
const wb = require('@workbook/harness')

async function main () {
  const s = wb.settings()
  console.log(wb.describeMachine())
  const r = await wb.withApp('hello-http', (app) =>
    wb.runLoad({ target: app, connections: 100, repeats: 5, live: false, label: 'bench-harness: hello-http x5' }))
  const rps = r.reqPerSec
  console.log(wb.textTable(rps.runs.map((v, i) => ({ run: i + 1, 'req/s': Math.round(v), 'p99 ms': r.latencyRuns[i].p99 }))))
  console.log(`median ${Math.round(rps.median)} req/s, min ${Math.round(rps.min)}, max ${Math.round(rps.max)}, ` +
    `spread (max-min)/median ${(rps.relativeSpread * 100).toFixed(1)} %`)
  console.log(`load generator: ${r.generator.cpuPercent.toFixed(0)} % of one core -> ${r.generator.saturated ? 'SATURATED (the numbers are the generator\'s limit)' : 'not saturated'}`)
  console.log(`server: median ${r.server.cpuPercent.toFixed(0)} % CPU, peak RSS ${r.server.rssPeakMB.toFixed(0)} MB; ` +
    `${s.warmupSeconds} s warm-up + 5 x ${s.durationSeconds} s (${s.name} profile)`)
  const file = wb.saveResults('bench-harness', r)
  console.log(`saved to ${file}`)
}

main().catch((err) => { console.error(err); process.exitCode = 1 })
