'use strict'
// Shared bits of the unit tests.
const path = require('node:path')

const fixture = (name) => path.join(__dirname, '..', 'fixtures', 'apps', name)
const server = (name) => path.join(__dirname, '..', 'fixtures', 'servers', name)

/** A module of the built harness that is not part of its public API, for unit tests of one module. */
const internal = (module) =>
  require(path.join(process.env.HARNESS_DIST || path.join(__dirname, '..', '..', 'harness', 'dist'), module))

/** A module of the built tools (tools/dist: the diagnosis, the comparison), for unit tests of one module. */
const tool = (module) => require(path.join(__dirname, '..', '..', 'tools', 'dist', module))

function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Synchronous work that holds the thread `ms` milliseconds (timerDrift's `work`, a known block). */
function spin(ms) {
  const end = performance.now() + ms
  while (performance.now() < end) {}
}

async function waitUntil(predicate, ms = 5000, step = 50) {
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
async function serveHere(t, handler) {
  const srv = require('node:http').createServer(handler)
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve))
  t.after(() => {
    srv.closeAllConnections()
    srv.close()
  })
  return `http://127.0.0.1:${srv.address().port}`
}

/** A free TCP port on loopback, for a fixture that listens on a fixed port of its own. */
async function freePort() {
  const net = require('node:net')
  const srv = net.createServer()
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve))
  const { port } = srv.address()
  await new Promise((resolve) => srv.close(resolve))
  return port
}

/**
 * An exercise check's spec on the small fixtures (tests/fixtures/apps/unblock-*.js): exercise 02's
 * shape, /cheap's p99 under a paced load with /expensive in the background; `overrides` replace parts.
 */
function exerciseSpec(overrides = {}) {
  return {
    exercise: 'unblock-test',
    app: { entry: 'unblock-done.js', probe: '/cheap' },
    baseline: { entry: 'unblock-start.js' },
    requests: [{ path: '/cheap' }, { path: '/expensive' }],
    compare: ['status', 'body'],
    load: { path: '/cheap', rate: 200 },
    background: { path: '/expensive', busyShare: 0.5 },
    metric: 'p99',
    threshold: 3,
    dir: path.join(__dirname, '..', 'fixtures', 'apps'),
    ...overrides,
  }
}

/** Per-second samples as runLoad records them: a warm-up, then measured runs. */
const secondSamples = (runs, seconds, reqPerSec = 40000) =>
  runs.flatMap((run) =>
    Array.from({ length: seconds }, (_, i) => ({
      run,
      second: i + 1,
      reqPerSec: reqPerSec - i * 100,
      latencyP50Ms: 0.2,
      latencyP99Ms: 0.1 + i,
      serverCpuPercent: null,
      generatorCpuPercent: 50,
    })),
  )

/**
 * A CPU profile made up as V8 writes one: `nodes` its call tree, `counts` [node id, samples] pairs in
 * the order they were sampled, each sample 1 ms.
 */
function madeUpProfile(nodes, counts) {
  const samples = counts.flatMap(([id, n]) => Array(n).fill(id))
  return { nodes, samples, timeDeltas: samples.map(() => 1000), startTime: 0, endTime: samples.length * 1000 }
}

module.exports = {
  madeUpProfile,
  fixture,
  spin,
  server,
  internal,
  tool,
  alive,
  waitUntil,
  SHORT,
  serveHere,
  freePort,
  exerciseSpec,
  secondSamples,
}
