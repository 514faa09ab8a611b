// clinic doctor on an app under load: the report's path, doctor's verdict and samples. Takes a minute
// or so (clinic analyses after the load): run it on a quiet machine.
// Run: node_modules/node/bin/node harness/samples/clinic.js [app-name]
const internal = require('@workbook/harness/internal')

async function main() {
  const app = process.argv[2] || 'hello-http'
  const d = await internal.clinicDoctor(app, { seconds: 3, connections: 10 })
  console.log(`doctor: ${d.html}`)
  console.log(
    `  verdict "${d.data.analysis.issueCategory}", ${d.data.processStat.length} samples, load ${JSON.stringify(d.load)}`,
  )
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
