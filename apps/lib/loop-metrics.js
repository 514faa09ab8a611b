'use strict'
// Event-loop metrics for any app, served on the reserved path /__metrics.
//
//   const { attachLoopMetrics } = require('../lib/loop-metrics')
//   const server = http.createServer(handler)      // or fastify().server, express's server, ...
//   attachLoopMetrics(server, { info: { maxDelayMs: 50 } })
//
// attachLoopMetrics wraps the server's 'request' listeners, so /__metrics is answered
// before the app's own handler (and before any load shedding, framework hook or 404):
//   GET  /__metrics            -> JSON snapshot (shape below)
//   GET  /__metrics?reset=1    -> the same snapshot, then everything starts again from zero
//   POST /__metrics/reset      -> the same as ?reset=1
//
// What is measured, in the app's own main thread:
//   - perf_hooks.monitorEventLoopDelay({ resolution }): a libuv timer that fires every
//     `resolution` ms and records how long it really took between two firings. Values are
//     Node's raw values: an idle loop reads about resolutionMs (10 ms by default), and
//     anything above that is delay. A loop blocked for 300 ms records ONE sample of ~300 ms.
//   - performance.eventLoopUtilization(): the share of wall time the loop was busy.
//   - CPU time since start or the last reset: the whole process's (process.cpuUsage(): every
//     thread) and the main thread's alone (process.threadCpuUsage(), Node >= 23.9; null before).
//     What the process used beyond its main thread ran on other threads: a worker pool's,
//     libuv's pool, the garbage collector's helpers.
//
// Two monitorEventLoopDelay histograms run side by side: one cumulative (since start or
// the last reset), one per interval (reset by a 1-second timer, the "tick").
//
// Snapshot shape (times in ms, `t` in seconds since start/reset):
//   { loopMetrics: 1, app, pid, resolutionMs, intervalMs, startedAt, elapsedMs,
//     info: { ...whatever the app passed },
//     histogram: { count, min, mean, p50, p90, p99, p999, max, resolutionMs, elu },
//     cpu: { processMs, mainThreadMs },
//     series: [ { t, intervalMs, samples, delayP50Ms, delayP99Ms, delayMaxMs, elu }, ... ],
//     current: { ...one row for the unfinished interval since the last tick } }
//
// Blocked seconds, honestly: the tick is itself a timer, so when the loop is blocked for
// longer than a second no tick can run. Nothing is invented for the missing seconds: the
// next tick writes ONE row whose intervalMs is the measured gap (e.g. 3012 for a 3-second
// block), whose samples are the few the delay timer could take (often 1: the long one, so
// delayMaxMs ~ the gap) and whose elu is ~1. A row with samples 0 has null delays. So:
// a row with intervalMs well above 1000 IS the blocked period; plot rows at their `t`.
// A monitor counting samples on a fixed one-second clock would instead read zero samples in
// every whole second inside the block; notebook 02's blockedStretches() finds those seconds
// from this series (the block ends at the long row's `t` and lasted its delayMaxMs).
// The series keeps the last MAX_ROWS rows (an hour at one row a second).
//
// Env: LOOP_METRICS_RESOLUTION_MS (default 10), LOOP_METRICS_INTERVAL_MS (default 1000).

const { monitorEventLoopDelay, performance } = require('node:perf_hooks')

const MAX_ROWS = 3600
const PATH = '/__metrics'

function envInt(name, fallback, min) {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`)
  return value
}

const ms = (ns) => Math.round(ns / 1e3) / 1e3 // nanoseconds -> milliseconds, 3 decimals
const round3 = (x) => Math.round(x * 1e3) / 1e3

// CPU time in ms, user + system: the process's (every thread), and its main thread's where Node can tell.
const cpuNow = () => {
  const all = process.cpuUsage()
  const main = typeof process.threadCpuUsage === 'function' ? process.threadCpuUsage() : null
  return { process: (all.user + all.system) / 1e3, main: main ? (main.user + main.system) / 1e3 : null }
}

function createLoopMetrics({
  name,
  info = {},
  resolutionMs = envInt('LOOP_METRICS_RESOLUTION_MS', 10, 1),
  intervalMs = envInt('LOOP_METRICS_INTERVAL_MS', 1000, 10),
} = {}) {
  const cumulative = monitorEventLoopDelay({ resolution: resolutionMs })
  const interval = monitorEventLoopDelay({ resolution: resolutionMs })
  cumulative.enable()
  interval.enable()

  let startedAt, startMono, startElu, startCpu, lastTickMono, lastTickElu
  let series = []

  function restart() {
    cumulative.reset()
    interval.reset()
    series = []
    startedAt = Date.now()
    startMono = performance.now()
    startElu = performance.eventLoopUtilization()
    startCpu = cpuNow()
    lastTickMono = startMono
    lastTickElu = startElu
  }

  // One row from the interval histogram, without resetting it.
  function row(now, eluNow) {
    const samples = interval.count
    return {
      t: round3((now - startMono) / 1000),
      intervalMs: round3(now - lastTickMono),
      samples,
      delayP50Ms: samples ? ms(interval.percentile(50)) : null,
      delayP99Ms: samples ? ms(interval.percentile(99)) : null,
      delayMaxMs: samples ? ms(interval.max) : null,
      elu: round3(performance.eventLoopUtilization(eluNow, lastTickElu).utilization),
    }
  }

  function tick() {
    const now = performance.now()
    const eluNow = performance.eventLoopUtilization()
    series.push(row(now, eluNow))
    if (series.length > MAX_ROWS) series.splice(0, series.length - MAX_ROWS)
    interval.reset()
    lastTickMono = now
    lastTickElu = eluNow
  }

  function histogram() {
    const n = cumulative.count
    const pick = (value) => (n ? ms(value) : null)
    return {
      count: n,
      min: pick(cumulative.min),
      mean: pick(cumulative.mean),
      p50: pick(cumulative.percentile(50)),
      p90: pick(cumulative.percentile(90)),
      p99: pick(cumulative.percentile(99)),
      p999: pick(cumulative.percentile(99.9)),
      max: pick(cumulative.max),
      resolutionMs,
      elu: round3(performance.eventLoopUtilization(startElu).utilization),
    }
  }

  function cpu() {
    const c = cpuNow()
    const main = c.main === null || startCpu.main === null ? null : round3(c.main - startCpu.main)
    return { processMs: round3(c.process - startCpu.process), mainThreadMs: main }
  }

  function snapshot() {
    const now = performance.now()
    return {
      loopMetrics: 1,
      app: name,
      pid: process.pid,
      resolutionMs,
      intervalMs,
      startedAt,
      elapsedMs: round3(now - startMono),
      info: typeof info === 'function' ? info() : info,
      histogram: histogram(),
      cpu: cpu(),
      series: series.slice(),
      current: row(now, performance.eventLoopUtilization()),
    }
  }

  function send(res, status, body) {
    const json = typeof body !== 'string'
    const text = `${json ? JSON.stringify(body) : body}\n`
    res.writeHead(status, {
      'content-type': json ? 'application/json' : 'text/plain',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
    })
    res.end(text)
  }

  // Answers /__metrics requests; returns false (and touches nothing) for every other URL.
  function handle(req, res) {
    const url = req.url || ''
    if (!url.startsWith(PATH)) return false
    const rest = url.slice(PATH.length)
    if (rest !== '' && rest[0] !== '?' && rest[0] !== '/') return false // e.g. /__metricsfoo
    const [pathname, query = ''] = rest.split('?', 2)
    const params = new URLSearchParams(query)
    req.resume() // a POST body, if any, is not needed
    if (pathname === '' || pathname === '/') {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('allow', 'GET, HEAD')
        send(res, 405, 'method not allowed')
        return true
      }
      const body = snapshot()
      if (params.get('reset') === '1') restart()
      send(res, 200, body)
      return true
    }
    if (pathname === '/reset') {
      if (req.method !== 'POST') {
        res.setHeader('allow', 'POST')
        send(res, 405, 'method not allowed')
        return true
      }
      const body = snapshot()
      restart()
      send(res, 200, body)
      return true
    }
    send(res, 404, 'not found')
    return true
  }

  restart()
  const timer = setInterval(tick, intervalMs)
  timer.unref()

  function stop() {
    clearInterval(timer)
    cumulative.disable()
    interval.disable()
  }

  return { handle, snapshot, reset: restart, stop, resolutionMs, intervalMs }
}

// Wrap every 'request' listener of a node:http (or https/http2-compat) server so that
// /__metrics is answered first. Call it AFTER the app's handler is installed.
function attachLoopMetrics(server, options) {
  const listeners = server.listeners('request')
  if (listeners.length === 0) {
    throw new TypeError(
      'attachLoopMetrics: the server has no request listener yet; call it after http.createServer(handler)',
    )
  }
  const metrics = createLoopMetrics(options)
  server.removeAllListeners('request')
  server.on('request', function loopMetricsFirst(req, res) {
    if (metrics.handle(req, res)) return
    for (const listener of listeners) listener.call(this, req, res)
  })
  server.once('close', metrics.stop)
  return metrics
}

module.exports = { attachLoopMetrics, createLoopMetrics, METRICS_PATH: PATH }
