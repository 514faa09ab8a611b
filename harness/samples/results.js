// Save measurements the way a notebook does, with the machine's fingerprint, and read them back.
// Writes results/sample-results.json (WORKBOOK_RESULTS_DIR moves the folder).
// Run: node_modules/node/bin/node harness/samples/results.js
const wb = require('@workbook/harness')
const internal = require('@workbook/harness/internal')

const file = wb.saveResults('sample-results', { note: 'made-up figures', reqPerSec: wb.spread([980, 1010, 1003]) })
const saved = internal.loadResults('sample-results')
console.log(`saved to ${file} at ${saved.savedAt}`)
console.log(wb.describeMachine(saved.fingerprint))
console.log(
  `median ${saved.data.reqPerSec.median} req/s, spread ${(saved.data.reqPerSec.relativeSpread * 100).toFixed(1)} %`,
)
console.log(`a notebook that never saved: ${JSON.stringify(internal.loadResults('no-such-notebook'))}`)
