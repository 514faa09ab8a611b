// clinic doctor and clinic flame on an app under load: the reports' paths, doctor's verdict and
// samples, flame's hottest frames. Takes a minute or so (clinic analyses after the load): run it
// on a quiet machine. Run: node_modules/node/bin/node harness/samples/clinic.js [app-name]
const internal = require('@workbook/harness/internal')

async function main() {
  const app = process.argv[2] || 'hello-http'
  const d = await internal.clinicDoctor(app, { seconds: 3, connections: 10 })
  console.log(`doctor: ${d.html}`)
  console.log(
    `  verdict "${d.data.analysis.issueCategory}", ${d.data.processStat.length} samples, load ${JSON.stringify(d.load)}`,
  )
  const f = await internal.clinicFlame(app, { seconds: 3, connections: 10 })
  console.log(`flame: ${f.html}`)
  console.log(`  ${f.data.ticks} ticks; on top of the stack most often:`)
  for (const fr of f.data.top.slice(0, 8))
    console.log(`  ${(fr.selfShare * 100).toFixed(1).padStart(5)} %  ${fr.type.padEnd(10)} ${fr.name.slice(0, 90)}`)
  console.log(
    `  the app's own frames: ${
      f.data.app.length
        ? f.data.app
            .slice(0, 3)
            .map((fr) => fr.name)
            .join('; ')
        : 'none sampled'
    }`,
  )
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
