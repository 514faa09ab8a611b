// Profile an app under load with --cpu-prof and draw its flame graph to SVG and PNG.
// Writes results/samples/flame.svg and flame.png. Loads the app for a few seconds: run it on a
// quiet machine. Run: node_modules/node/bin/node harness/samples/flame-chart.js [app-name]
const fs = require('node:fs')
const path = require('node:path')
const wb = require('@workbook/harness')
const internal = require('@workbook/harness/internal')

async function main() {
  const p = await wb.cpuProfile(process.argv[2] || 'hello-http', { seconds: 3 })
  const chart = wb.flameChart(p.flame, { title: `Flame graph: ${p.app} under load` })
  const dir = path.join(internal.resultsDir, 'samples')
  fs.mkdirSync(dir, { recursive: true })
  wb.show(chart, {
    update(bundle) {
      fs.writeFileSync(path.join(dir, 'flame.svg'), bundle['image/svg+xml'])
      fs.writeFileSync(path.join(dir, 'flame.png'), bundle['image/png'])
    },
  })
  console.log(wb.hotTable(p.flame, 8))
  const u = p.flame.hottestUser
  console.log(
    u
      ? `hottest frame of the app's own code: ${u.name} (${u.file}:${u.line}), ${(u.attributedShare * 100).toFixed(1)} % attributed`
      : "no frame of the app's own code was sampled",
  )
  console.log(`wrote flame.svg and flame.png in ${dir}; the profile is ${p.file}`)
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
