'use strict'
// The workbook's probe: preloaded into every Node app the harness starts (`node --require probe.cjs`),
// so that any server, not only the workbook's own, can be started, loaded, watched and stopped.
// It talks to the harness over a Unix socket named in WORKBOOK_PROBE_SOCKET (a side channel: the
// app's stdout and stderr stay the app's own) and does four things:
//   1. reports every address a server of the process listens on (the 'listening' event of any
//      net.Server: node:http, express, fastify, koa...), so the harness learns the real port;
//   2. makes SIGINT and SIGTERM end the process cleanly (exit code 0, so `--cpu-prof` writes its
//      profile), unless the app handles the signal itself;
//   3. with WORKBOOK_PROBE_INTERVAL_MS, samples memory, event-loop delay and utilisation, CPU and
//      garbage collection, and sends one sample per interval;
//   4. answers the harness's requests: a heap snapshot, a sampling heap profile (of what is alive
//      at its end, or with includeCollected of every allocation), a CPU profile of a window, a full
//      garbage collection (and the heap it leaves), and how many HTTP requests the app has received
//      since it was asked to count them (Node's `http.server.request.start` diagnostics channel: free
//      until someone subscribes, one call per request while counting); and what the process has
//      used (`usage`: CPU time, the main thread's alone, resident memory), the readings that work on
//      every platform Node runs on (harness/src/apps/usage.ts).
// Without WORKBOOK_PROBE_SOCKET it does nothing at all.
const path = require('node:path')

function main() {
  const socketPath = process.env.WORKBOOK_PROBE_SOCKET
  const id = process.env.WORKBOOK_APP_ID
  if (!socketPath || !id) return
  if (!require('node:worker_threads').isMainThread) return
  // Only the app itself: not a tool that wraps it (clinic) or a child it starts with the same environment.
  const entry = process.env.WORKBOOK_PROBE_ENTRY
  if (entry && process.argv[1] && path.resolve(process.argv[1]) !== entry) return
  delete process.env.WORKBOOK_PROBE_SOCKET // children of the app are not the app

  const net = require('node:net')
  const queue = []
  let socket = null
  const send = (msg) => {
    const line = `${JSON.stringify(msg)}\n`
    if (socket) socket.write(line)
    else queue.push(line)
  }
  const s = net.createConnection(socketPath, () => {
    socket = s
    for (const line of queue.splice(0)) s.write(line)
  })
  s.on('error', () => {}) // the harness went away: the app goes on
  s.unref()
  send({ type: 'hello', id, pid: process.pid })

  // 1. Every listening address.
  const listen = net.Server.prototype.listen
  net.Server.prototype.listen = function (...args) {
    this.once('listening', () => {
      const a = this.address()
      if (a && typeof a === 'object') send({ type: 'listening', address: a.address, port: a.port, family: a.family })
      else if (typeof a === 'string') send({ type: 'listening', address: a, port: null, family: 'pipe' })
    })
    return listen.apply(this, args)
  }

  // 2. A clean exit on SIGINT / SIGTERM, unless the app has its own handler.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, function cleanExit() {
      if (process.listenerCount(signal) > 1) return
      send({ type: 'signal', signal })
      process.exit(0)
    })
  }
  if (process.env.WORKBOOK_WATCH_STDIN === '1') {
    // Never outlive the harness: stdin is its pipe, closed when it dies. unref: it keeps nothing alive.
    process.stdin.on('end', () => process.exit(0))
    process.stdin.on('error', () => process.exit(0))
    process.stdin.resume()
    process.stdin.unref()
  }

  // 3. Samples.
  const interval = Number(process.env.WORKBOOK_PROBE_INTERVAL_MS || 0)
  if (interval > 0) startSampling(interval, send)

  // 4. Requests, one JSON line each.
  require('node:readline')
    .createInterface({ input: s })
    .on('line', (line) => {
      let req
      try {
        req = JSON.parse(line)
      } catch {
        return
      }
      answer(req).then(
        (value) => send({ type: 'reply', req: req.req, ok: true, value }),
        (err) => send({ type: 'reply', req: req.req, ok: false, error: String(err?.message) }),
      )
    })
}

function startSampling(interval, send) {
  const { performance, PerformanceObserver, monitorEventLoopDelay } = require('node:perf_hooks')
  const resolution = 10
  const delay = monitorEventLoopDelay({ resolution })
  delay.enable()
  let gcCount = 0
  let gcMs = 0
  let gcMaxMs = 0
  const gcByKind = {}
  const kinds = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weakcb' }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcCount++
      gcMs += e.duration
      gcMaxMs = Math.max(gcMaxMs, e.duration)
      const kind = kinds[e.detail?.kind] || 'other'
      gcByKind[kind] = (gcByKind[kind] || 0) + e.duration
    }
  }).observe({ entryTypes: ['gc'] })
  let elu = performance.eventLoopUtilization()
  let cpu = process.cpuUsage()
  // The main thread's own CPU (Node 26: process.threadCpuUsage), beside the process's: the rest went
  // to libuv's pool, worker threads and V8's helpers (GC, compilers). null where Node lacks it.
  const threadCpu = typeof process.threadCpuUsage === 'function' ? () => process.threadCpuUsage() : () => null
  let mainCpu = threadCpu()
  let last = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    const m = process.memoryUsage()
    const eluNow = performance.eventLoopUtilization()
    const cpuNow = process.cpuUsage()
    const mainCpuNow = threadCpu()
    const ms = (ns) => (Number.isFinite(ns) && ns > 0 ? Math.max(0, ns / 1e6 - resolution) : 0)
    send({
      type: 'sample',
      t: Date.now(),
      mono: now,
      intervalMs: now - last,
      rss: m.rss,
      heapUsed: m.heapUsed,
      heapTotal: m.heapTotal,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
      elu: performance.eventLoopUtilization(eluNow, elu).utilization,
      cpuMs: (cpuNow.user - cpu.user + cpuNow.system - cpu.system) / 1000,
      mainCpuMs:
        mainCpuNow && mainCpu ? (mainCpuNow.user - mainCpu.user + mainCpuNow.system - mainCpu.system) / 1000 : null,
      delayP50Ms: ms(delay.percentile(50)),
      delayP99Ms: ms(delay.percentile(99)),
      delayMaxMs: ms(delay.max),
      gcCount,
      gcMs,
      gcMaxMs,
      gcByKind: { ...gcByKind },
    })
    delay.reset()
    gcCount = 0
    gcMs = 0
    gcMaxMs = 0
    for (const k of Object.keys(gcByKind)) delete gcByKind[k]
    elu = eluNow
    cpu = cpuNow
    mainCpu = mainCpuNow
    last = now
  }, interval)
  timer.unref()
}

let session = null
function inspector() {
  if (!session) {
    const { Session } = require('node:inspector')
    session = new Session()
    session.connect()
  }
  return session
}
const post = (method, params) =>
  new Promise((resolve, reject) =>
    inspector().post(method, params, (err, result) => (err ? reject(err) : resolve(result))),
  )

// Requests received while counting: the load generator's figures come at the end of a run (wrk), so
// a live chart reads requests per second from the app's side.
let served = 0
const countRequest = () => {
  served++
}
function counting(on) {
  const dc = require('node:diagnostics_channel')
  if (on) dc.subscribe('http.server.request.start', countRequest)
  else dc.unsubscribe('http.server.request.start', countRequest)
}

async function answer(req) {
  const fs = require('node:fs')
  switch (req.cmd) {
    case 'count-start':
      counting(false) // never twice
      counting(true)
      served = 0
      return { served, mono: require('node:perf_hooks').performance.now() }
    case 'count':
      return { served, mono: require('node:perf_hooks').performance.now() }
    case 'count-stop':
      counting(false)
      return { served, mono: require('node:perf_hooks').performance.now() }
    // What the process has used, from Node's own counters (every platform): CPU time of every thread
    // and of the main thread alone (process.threadCpuUsage, Node 23.9+; null before), in µs, and RSS.
    case 'usage': {
      const cpu = process.cpuUsage()
      const thread = process.threadCpuUsage ? process.threadCpuUsage() : null
      return {
        cpuUs: cpu.user + cpu.system,
        threadCpuUs: thread ? thread.user + thread.system : null,
        rssBytes: process.memoryUsage.rss(),
        mono: require('node:perf_hooks').performance.now(),
      }
    }
    // The app's monotonic clock, to mark a stretch of its samples (the wall clock can be set meanwhile).
    case 'now':
      return { mono: require('node:perf_hooks').performance.now() }
    case 'heap-snapshot':
      return { file: require('node:v8').writeHeapSnapshot(req.file) }
    case 'heap-sampling-start':
      await post('HeapProfiler.enable')
      // includeCollected: every allocation, not only what is still alive when sampling stops (the
      // allocation sites behind GC pressure are mostly garbage by then).
      await post('HeapProfiler.startSampling', {
        samplingInterval: req.intervalBytes || 32768,
        includeObjectsCollectedByMajorGC: Boolean(req.includeCollected),
        includeObjectsCollectedByMinorGC: Boolean(req.includeCollected),
      })
      return {}
    case 'heap-sampling-stop': {
      const { profile } = await post('HeapProfiler.stopSampling')
      fs.writeFileSync(req.file, JSON.stringify(profile))
      return { file: req.file }
    }
    // A CPU profile of a window of the app's life (`--cpu-prof` covers all of it, start-up included).
    case 'cpu-profile-start':
      await post('Profiler.enable')
      await post('Profiler.setSamplingInterval', { interval: req.intervalUs || 1000 })
      await post('Profiler.start')
      return {}
    case 'cpu-profile-stop': {
      const { profile } = await post('Profiler.stop')
      fs.writeFileSync(req.file, JSON.stringify(profile))
      return { file: req.file }
    }
    // A full garbage collection, and the memory left after it: heapUsed is then what the app keeps,
    // not what it keeps plus garbage.
    case 'heap-after-gc':
      await post('HeapProfiler.enable')
      await post('HeapProfiler.collectGarbage')
      return process.memoryUsage()
    default:
      throw new Error(`unknown request ${JSON.stringify(req.cmd)}`)
  }
}

main()
