// Draws docs/live-chart.png, the picture on the README's first screen, from a real run: hello-http
// at 10 connections, its per-second series drawn by perSecond() (the chart the live chart ends
// with). Durations follow WORKBOOK_PROFILE. It loads the machine: run it on a quiet one.
// Run: node_modules/node/bin/node docs/live-chart.js
const fs = require('node:fs')
const path = require('node:path')
const wb = require('@workbook/harness')
const internal = require('@workbook/harness/internal')

async function main() {
  const r = await wb.withApp('hello-http', (app) => wb.runLoad({ target: app, connections: 10, live: false }))
  const chart = internal.perSecond(r, {
    title: 'hello-http, 10 connections: the live chart of a load test',
    subtitle: `Node ${r.fingerprint.node}, ${r.fingerprint.cores} cores; median ${wb.fmt(r.reqPerSec.median)} req/s over ${r.repeats} runs`,
  })
  const file = path.join(__dirname, 'live-chart.png')
  wb.show(chart, {
    update(bundle) {
      fs.writeFileSync(file, bundle['image/png'])
    },
  })
  console.log(`wrote ${file}${r.generator.saturated ? ' (the load generator was saturated)' : ''}`)
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
