// A server of your own, started by hand and kept across several steps: startApp() gives the handle
// (url, pid, stderr), you ask it things and load it, and stop() ends it. withApp() does the same
// for one step and stops the app even when the step throws; by hand, stop it in a finally, and
// stopAll() ends whatever is still running. Any Node server file works: the harness learns its port.
// Run: node_modules/node/bin/node harness/samples/own-server.js [path/to/server.js] [/route]
const wb = require('@workbook/harness')
const internal = require('@workbook/harness/internal')

async function main() {
  const file = process.argv[2] || 'notebooks/your-server/server.js'
  const route = process.argv[3] || '/'
  const app = await internal.startApp(file)
  try {
    console.log(`${app.name} listens on ${app.url} (pid ${app.pid}); running: ${internal.running().length} app(s)`)
    const res = await fetch(`${app.url}${route}`)
    console.log(`GET ${route}: ${res.status} ${(await res.text()).slice(0, 80)}`)
    const r = await wb.runLoad({ target: app, path: route, connections: 10, warmup: 0, duration: 1, repeats: 1 })
    console.log(`${wb.fmt(r.reqPerSec.median)} req/s, p99 ${wb.fmt(r.latencyMs.p99)} ms`)
  } finally {
    await app.stop()
  }
  internal.stopAll() // nothing left here; after an error elsewhere, this is how to end every app
  console.log(`running after stop: ${internal.running().length} app(s)`)
}

main().catch((e) => {
  console.error(e.message)
  process.exitCode = 1
})
