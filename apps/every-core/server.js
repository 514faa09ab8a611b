'use strict'
// apps/frameworks/node-http.js's server (GET /hello, /json, /blog, the same payloads), on as many processes
// as it is told (notebook 07):
//   MODE=single      one process, as every other app of the workbook;
//   MODE=cluster     node:cluster: the primary accepts the connections and hands them to WORKERS
//                    workers in turn (round-robin, Node's default on Linux); it answers no request;
//   MODE=reuseport   WORKERS processes, each listening on the same port with reusePort: true (Linux,
//                    Node >= 22.12): the kernel spreads new connections over them. The primary only
//                    starts them and waits.
// Every process counts the /json requests it answered. With STATS_DIR set, each writes
// STATS_DIR/<pid>.json ({ mode, role, pid, requests, cpuMs, rssMB }) every 200 ms and as it exits,
// so that the notebook can see how evenly the work spread and what each process cost.
const cluster = require('node:cluster')
const { fork } = require('node:child_process')
const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')
const { HELLO_TEXT, helloObject, blogPost } = require('../frameworks/lib/payloads')
const { HOST, port, announce, onShutdown, closeHttp } = require('../lib/contract')

const MODE = process.env.MODE || 'single'
const MODES = ['single', 'cluster', 'reuseport']
if (!MODES.includes(MODE)) throw new Error(`MODE must be one of ${MODES.join(', ')}, got ${JSON.stringify(MODE)}`)
const WORKERS = Number(process.env.WORKERS || 1)
if (!Number.isInteger(WORKERS) || WORKERS < 1) {
  throw new Error(`WORKERS must be a whole number of at least 1, got ${JSON.stringify(process.env.WORKERS)}`)
}
const STATS_DIR = process.env.STATS_DIR || ''
const isWorker = process.env.EVERY_CORE_WORKER === '1' || (MODE === 'cluster' && !cluster.isPrimary)
let role = 'primary'
if (MODE === 'single') role = 'single'
else if (isWorker) role = 'worker'

let requests = 0
function writeStats() {
  if (!STATS_DIR) return
  const cpu = process.cpuUsage()
  const stats = {
    mode: MODE,
    role,
    pid: process.pid,
    requests,
    cpuMs: (cpu.user + cpu.system) / 1000,
    rssMB: process.memoryUsage.rss() / 2 ** 20,
  }
  const file = path.join(STATS_DIR, `${process.pid}.json`)
  try {
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(stats))
    fs.renameSync(`${file}.tmp`, file) // a reader never sees half a file
  } catch {} // the folder was removed: the notebook is done with it
}
if (STATS_DIR) setInterval(writeStats, 200).unref()

function send(res, type, body) {
  res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

// The routes and payloads of apps/frameworks/ (node-http.js), so that the same route checks hold.
function handler(req, res) {
  if (req.method === 'GET' && req.url === '/json') {
    requests++
    send(res, 'application/json; charset=utf-8', JSON.stringify(helloObject()))
  } else if (req.method === 'GET' && req.url === '/hello') {
    send(res, 'text/plain; charset=utf-8', HELLO_TEXT)
  } else if (req.method === 'GET' && req.url === '/blog') {
    send(res, 'application/json; charset=utf-8', JSON.stringify(blogPost()))
  } else {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
    res.end('Not Found')
  }
}

/** A process that answers requests: listen, tell the primary (if any), and close cleanly. */
function serve(options, ready) {
  const server = http.createServer(handler)
  server.listen(options, () => ready(server.address().port))
  onShutdown(async () => {
    await closeHttp(server)
    writeStats()
  })
}

/** The primary: start the children, announce once every one listens, stop them on the way out. */
function primary(start) {
  const children = []
  const gone = () => Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode !== null ? null : once(c))))
  const once = (c) => new Promise((resolve) => c.once('exit', resolve))
  onShutdown(async () => {
    for (const c of children) c.kill('SIGTERM')
    await gone()
    writeStats()
  })
  start(children)
}

const exitWithChild = (child) =>
  child.once('exit', (code, signal) => {
    process.stderr.write(`a worker (pid ${child.pid}) exited (${signal ?? code}): stopping\n`)
    process.exit(1)
  })

if (MODE === 'single') {
  serve({ port: port(), host: HOST }, (p) => announce('every-core', p, { mode: MODE, workers: 1 }))
} else if (isWorker) {
  const options = { port: port(), host: HOST, ...(MODE === 'reuseport' ? { reusePort: true } : {}) }
  serve(options, (p) => process.send?.({ listening: p }))
} else {
  primary((children) => {
    let listening = 0
    let shared = MODE === 'reuseport' ? port() : -1
    const started = (p) => {
      if (++listening === WORKERS) announce('every-core', p, { mode: MODE, workers: WORKERS })
    }
    const add = () => {
      const env = { ...process.env, EVERY_CORE_WORKER: '1', PORT: String(shared === -1 ? port() : shared) }
      const child = MODE === 'cluster' ? cluster.fork(env).process : fork(__filename, [], { env })
      children.push(child)
      exitWithChild(child)
      child.on('message', (msg) => {
        if (typeof msg?.listening !== 'number') return
        if (shared === 0) {
          // reusePort with PORT=0: the first child chose the port, and the others join it there.
          shared = msg.listening
          for (let i = 1; i < WORKERS; i++) add()
        }
        started(msg.listening)
      })
    }
    // cluster: every worker asks the primary for the same address (PORT=0 included: one handle, one
    // port), and the primary listens once for them all.
    const first = MODE === 'reuseport' && shared === 0 ? 1 : WORKERS
    for (let i = 0; i < first; i++) add()
  })
}
