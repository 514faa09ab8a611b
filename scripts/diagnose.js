// Diagnose a server under a short load: the verdict with its evidence, and an HTML report; with
// --routes FILE, several routes in one run, ranked by CPU per request against the reference.
// Run: node_modules/node/bin/node scripts/diagnose.js path/to/server.js [--route /path | --routes routes.json]
//      [--connections 10] [--seconds N] [--port N]
//      (or `make diagnose APP=path/to/server.js [ROUTE=/path | ROUTES=routes.json] [WATCH=N] [PORT=N]`)
const { parseArgs } = require('node:util')
const path = require('node:path')
const wb = require('@workbook/harness')
const { diagnose, diagnoseRoutes } = require('@workbook/tools')

const USAGE =
  'usage: make diagnose APP=path/to/server.js [ROUTE=/path | ROUTES=routes.json] [WATCH=seconds] [PORT=port to load]  (or an app of the registry, e.g. APP=hello-http)'

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      route: { type: 'string', default: '/' },
      routes: { type: 'string' },
      connections: { type: 'string' },
      seconds: { type: 'string' },
      port: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help || positionals.length !== 1) {
    console.error(USAGE)
    return 2
  }
  const num = (v) => (v === undefined ? undefined : Number(v))
  const opts = {
    connections: num(values.connections),
    seconds: num(values.seconds),
    start: values.port === undefined ? undefined : { port: num(values.port) },
  }
  const rel = (f) => path.relative(process.cwd(), f)
  if (values.routes) {
    console.log(`diagnosing ${positionals[0]}, the routes of ${values.routes} (${wb.settings().name} profile)...`)
    const r = await diagnoseRoutes(positionals[0], values.routes, opts)
    for (const x of r.ranked) console.log(`\n${x.name}\n${x.diagnosis.text}\nreport: ${rel(x.diagnosis.report)}`)
    console.log(`\n${r.text}`)
    console.log(`report: ${rel(r.report)}`)
    console.log(`took ${r.tookSeconds.toFixed(1)} s`)
    return 0
  }
  console.log(`diagnosing ${positionals[0]} ${values.route} (${wb.settings().name} profile)...`)
  const d = await diagnose(positionals[0], { ...opts, route: values.route })
  console.log(d.text)
  console.log(`report: ${rel(d.report)}`)
  console.log(`took ${d.tookSeconds.toFixed(1)} s`)
  return 0
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof wb.WorkbookError ? `${err.code}: ${err.message}` : err)
    process.exit(1)
  },
)
