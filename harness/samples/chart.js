// Render a chart to SVG, PNG and text without a notebook, through the public API only: show()
// hands its one output (image/svg+xml, image/png, text/plain) to any object with an update()
// method, here one that writes files. Writes results/samples/chart.svg and chart.png.
// Run: node_modules/node/bin/node harness/samples/chart.js
const fs = require('node:fs')
const path = require('node:path')
const wb = require('@workbook/harness')
const internal = require('@workbook/harness/internal')

// Made-up figures: this sample shows the drawing, not a measurement.
const chart = wb.barsWithSpread(
  [
    { label: 'server A', median: 40000, min: 36000, max: 43000 },
    { label: 'server B', median: 15000, min: 14000, max: 17500 },
  ],
  { title: 'A chart outside the notebook', subtitle: 'made-up figures', unit: 'req/s' },
)

const dir = path.join(internal.resultsDir, 'samples')
fs.mkdirSync(dir, { recursive: true })
wb.show(chart, {
  update(bundle) {
    fs.writeFileSync(path.join(dir, 'chart.svg'), bundle['image/svg+xml'])
    fs.writeFileSync(path.join(dir, 'chart.png'), bundle['image/png'])
    console.log(bundle['text/plain'])
    console.log(`wrote chart.svg and chart.png in ${dir}`)
  },
})
