// Start an app, load it for a few seconds, print the tidy record.
// Run: node_modules/node/bin/node harness/samples/load.js
const wb = require('@workbook/harness')

wb.withApp('hello-http', (app) =>
  wb.runLoad({ target: app, connections: 10, warmup: 1, duration: 2, repeats: 3 }),
).then((r) => {
  console.log(wb.describeMachine())
  console.log(
    `${r.label}: ${Math.round(r.reqPerSec.median)} req/s (min ${Math.round(r.reqPerSec.min)}, max ${Math.round(r.reqPerSec.max)}), p99 ${r.latencyMs.p99} ms, server CPU ${r.cpuPerRequestUs?.median.toFixed(1)} µs per request, generator saturated in ${r.generator.saturatedRuns} of ${r.repeats} runs`,
  )
})
