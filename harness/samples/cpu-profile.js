// Profile an app under load with --cpu-prof and print its hottest frames.
// Run: node_modules/node/bin/node harness/samples/cpu-profile.js [app-name]
const wb = require('@workbook/harness')

wb.cpuProfile(process.argv[2] || 'hello-http', { seconds: 3 }).then((p) => {
  console.log(`profile written to ${p.file}`)
  console.log(wb.hotTable(p.flame, 10))
})
