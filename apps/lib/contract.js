'use strict'
// The app contract, shared by every app in apps/ (see apps/README.md).
//   - read the port from PORT (0 = any free port) and the host from HOST (default 127.0.0.1);
//   - print ONE machine-readable line on stdout once listening:
//       {"workbook":"listening","app":"<name>","url":"http://127.0.0.1:<port>","port":<port>,"pid":<pid>}
//   - exit cleanly (code 0) on SIGINT/SIGTERM, so `node --cpu-prof` writes its profile;
//   - when the harness asks for it (WORKBOOK_WATCH_STDIN=1), exit when stdin closes, so an
//     app never outlives a kernel that was killed without a chance to clean up.

const HOST = process.env.HOST || '127.0.0.1'

function port() {
  const raw = process.env.PORT === undefined || process.env.PORT === '' ? '0' : process.env.PORT
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new Error(`PORT must be an integer between 0 and 65535, got ${JSON.stringify(raw)}`)
  }
  return value
}

function announce(name, boundPort, extra = {}) {
  const url = `http://${HOST.includes(':') ? `[${HOST}]` : HOST}:${boundPort}`
  process.stdout.write(
    `${JSON.stringify({ workbook: 'listening', app: name, url, port: boundPort, pid: process.pid, ...extra })}\n`,
  )
}

let shuttingDown = false
function onShutdown(close, { graceMs = 5000 } = {}) {
  const shutdown = async (why) => {
    if (shuttingDown) return
    shuttingDown = true
    const timer = setTimeout(() => {
      process.stderr.write(`shutdown (${why}) took longer than ${graceMs} ms; exiting anyway\n`)
      process.exit(0)
    }, graceMs)
    timer.unref()
    try {
      await close()
    } catch (err) {
      process.stderr.write(`error while closing: ${err?.stack}\n`)
    }
    process.exit(0)
  }
  process.once('SIGINT', () => shutdown('SIGINT'))
  process.once('SIGTERM', () => shutdown('SIGTERM'))
  if (process.env.WORKBOOK_WATCH_STDIN === '1') {
    process.stdin.on('end', () => shutdown('stdin closed'))
    process.stdin.on('error', () => shutdown('stdin error'))
    process.stdin.resume()
  }
}

function closeHttp(server) {
  return new Promise((resolve) => {
    server.close(() => resolve())
    if (typeof server.closeAllConnections === 'function') server.closeAllConnections()
  })
}

// Serve any node:http.Server (express, koa, restify's .server, hono's adaptor, ...).
function serveHttp(name, server, extra) {
  server.listen(port(), HOST, () => announce(name, server.address().port, extra))
  onShutdown(() => closeHttp(server))
  return server
}

module.exports = { HOST, port, announce, onShutdown, closeHttp, serveHttp }
