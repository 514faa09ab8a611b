// Render a chart to SVG, PNG and text without a notebook; writes chart.svg and chart.png here.
// Run: node_modules/node/bin/node harness/samples/chart.js
const fs = require('node:fs')
const wb = require('@workbook/harness')
const { toPng } = require('@workbook/harness/dist/render')

const chart = wb.barsWithSpread([
  { label: 'node:http', median: 40000, min: 36000, max: 43000 },
  { label: 'express', median: 15000, min: 14000, max: 17500 },
], { title: 'A chart outside the notebook', unit: 'req/s' })
fs.writeFileSync('chart.svg', chart.svg)
fs.writeFileSync('chart.png', toPng(chart.svg))
console.log(chart.text)
