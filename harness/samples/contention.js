// Head-of-line blocking in a few seconds: /cheap alone, then beside /expensive, with evenly
// paced loads (pacedLoad / contentionRounds) and the app's own event-loop report (/__metrics).
// Run: WORKBOOK_PROFILE=quick node_modules/node/bin/node harness/samples/contention.js
const wb = require('@workbook/harness')
const internal = require('@workbook/harness/internal')

wb.withApp('loop-blocking', async (app) => {
  const alone = await internal.pacedLoad({ target: app, path: '/cheap', rate: 200, seconds: 2 })
  console.log(`/cheap alone: p99 ${alone.latencyMs.p99} ms, ${alone.totalRequests} answers, ${alone.non2xx} non-2xx`)
  const { blocked: r } = await wb.contentionRounds(
    [{ key: 'blocked', target: app, background: { path: '/expensive', rate: 4 }, metrics: true }],
    { rounds: 1, seconds: 2, warmupSeconds: 0 },
  )
  console.log(
    `/cheap beside /expensive 4/s: p99 ${r.cheap.latencyMs.p99} ms; /expensive p50 ${r.background.latencyMs.p50} ms`,
  )
  const m = r.runs[0].metrics
  console.log(
    `event-loop delay p99 ${m.histogram.p99} ms (resolution ${m.resolutionMs} ms), utilisation ${m.histogram.elu}`,
  )
}).catch((err) => {
  console.error(err)
  process.exitCode = 1
})
