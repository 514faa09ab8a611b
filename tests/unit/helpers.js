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

module.exports = { fixture, alive, waitUntil, SHORT }
