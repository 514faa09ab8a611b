// Diagnose a server under a short load: the verdict with its evidence, and an HTML report.
// Run: node_modules/node/bin/node scripts/diagnose.js path/to/server.js [--route /path] [--connections 10]
//      [--seconds N] [--port N]   (or `make diagnose APP=path/to/server.js [ROUTE=/path] [WATCH=N] [PORT=N]`)
const { parseArgs } = require('node:util')
const path = require('node:path')
const wb = require('@workbook/harness')
const { diagnose } = require('@workbook/tools')

const USAGE =
  'usage: make diagnose APP=path/to/server.js [ROUTE=/path] [WATCH=seconds] [PORT=port to load]  (or an app of the registry, e.g. APP=hello-http)'

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      route: { type: 'string', default: '/' },
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
  console.log(`diagnosing ${positionals[0]} ${values.route} (${wb.settings().name} profile)...`)
  const d = await diagnose(positionals[0], {
    route: values.route,
    connections: num(values.connections),
    seconds: num(values.seconds),
    start: values.port === undefined ? undefined : { port: num(values.port) },
  })
  console.log(d.text)
  console.log(`report: ${path.relative(process.cwd(), d.report)}`)
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
