'use strict'
// Shared bits of the unit tests.
const path = require('node:path')

const fixture = (name) => path.join(__dirname, '..', 'fixtures', 'apps', name)

function alive (pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function waitUntil (predicate, ms = 5000, step = 50) {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await predicate()) return true
    await new Promise((resolve) => setTimeout(resolve, step))
  }
  return false
}

// Short loads for tests: the numbers do not matter here, only the shape and the failures.
const SHORT = { warmup: 0, duration: 1, repeats: 2, live: false }

// An HTTP server in the test process on a loopback port, closed when the test ends; resolves to its base URL.
async function serveHere (t, handler) {
  const server = require('node:http').createServer(handler)
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(() => { server.closeAllConnections(); server.close() })
  return `http://127.0.0.1:${server.address().port}`
}

module.exports = { fixture, alive, waitUntil, SHORT, serveHere }
