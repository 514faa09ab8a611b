'use strict'
// Notebook 07's pieces: the every-core app's processes and their own counts, the harness reading a
// server of several processes (its CPU and memory summed), the cores knobs and the plan sentence.
const { test } = require('node:test')
const { spawn, spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { internal, alive, waitUntil } = require('./helpers')
const { startApp } = internal('apps/start')
const { processTree, readTreeUsage, readUsage, readThreads } = internal('apps/usage')
const { cpuList } = internal('core/pinning')
const { readings } = internal('core/readings')
// With WORKBOOK_READINGS=none no process can be read: a tree is its root alone and every reading null.
const NONE = readings().mode === 'none'
const {
  workerLevels,
  spreading,
  readProcessStats,
  perCore,
  publishedThreading,
  coresPlanText,
} = require('../../notebooks/07-every-core.ts')

const NODE = process.execPath
const ROOT = path.join(__dirname, '..', '..')

test('workerLevels: 1, 2, 4 ... up to the server cores, then twice them', (t) => {
  t.assert.deepStrictEqual(workerLevels(1), [1, 2])
  t.assert.deepStrictEqual(workerLevels(2), [1, 2, 4])
  t.assert.deepStrictEqual(workerLevels(4), [1, 2, 4, 8])
  t.assert.deepStrictEqual(workerLevels(6), [1, 2, 4, 6, 12])
  for (const bad of [0, 1.5, -2]) t.assert.throws(() => workerLevels(bad), /whole number >= 1/)
})

test("cpuList reads taskset's syntax and refuses anything else", (t) => {
  t.assert.deepStrictEqual(cpuList('0'), [0])
  t.assert.deepStrictEqual(cpuList('1-3'), [1, 2, 3])
  t.assert.deepStrictEqual(cpuList('0,2-3, 5'), [0, 2, 3, 5])
  for (const bad of ['', 'a', '3-1', '1-', '1,,2']) t.assert.strictEqual(cpuList(bad), null, bad)
})

test('spreading: shares of the workers, the primary apart, memory summed', (t) => {
  const s = spreading([
    { mode: 'cluster', role: 'worker', pid: 3, requests: 300, cpuMs: 900, rssMB: 70 },
    { mode: 'cluster', role: 'primary', pid: 1, requests: 0, cpuMs: 100, rssMB: 50 },
    { mode: 'cluster', role: 'worker', pid: 2, requests: 100, cpuMs: 1000, rssMB: 74 },
  ])
  t.assert.strictEqual(s.workers, 2)
  t.assert.strictEqual(s.requests, 400)
  t.assert.strictEqual(s.minShare, 0.25)
  t.assert.strictEqual(s.maxShare, 0.75)
  t.assert.strictEqual(s.primaryCpuMs, 100)
  t.assert.strictEqual(s.primaryCpuShare, 0.05)
  t.assert.strictEqual(s.rssTotalMB, 194)
  t.assert.strictEqual(s.rssPrimaryMB, 50)
  t.assert.strictEqual(s.rssWorkerMB, 70)
  const one = spreading([{ mode: 'single', role: 'single', pid: 9, requests: 5, cpuMs: 10, rssMB: 60 }])
  t.assert.deepStrictEqual([one.workers, one.minShare, one.primaryCpuShare, one.rssPrimaryMB], [1, 1, 0, 0])
  t.assert.throws(
    () => spreading([{ mode: 'cluster', role: 'primary', pid: 1, requests: 0, cpuMs: 1, rssMB: 1 }]),
    /no process that answers/,
  )
})

test('readProcessStats: a folder with no figures names the folder and the cause', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-stats-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  t.assert.throws(
    () => readProcessStats(dir),
    (e) => e.code === 'WB_NO_REPORT' && e.message.includes(`STATS_DIR=${dir}`),
  )
  t.assert.throws(() => readProcessStats(path.join(dir, 'gone')), /no process of apps\/every-core/)
})

test('coresPlanText says what the cores can show: one server core, several, shared with the generator, none', (t) => {
  const pin = (server, generator) => {
    const [s, g] = [server, generator].map(cpuList)
    const sharedCpus = s.filter((c) => g.includes(c))
    return { enabled: true, server, generator, reason: '', serverCpus: s, generatorCpus: g, sharedCpus }
  }
  const one = coresPlanText(pin('1', '0'), [1, 2])
  t.assert.match(one, /The server gets 1 core \(CPU 1\) and the load generator 1 core \(CPU 0\)\./)
  t.assert.match(one, /no curve to draw: 2 workers take turns/)
  t.assert.match(one, /WORKBOOK_SERVER_CPUS and WORKBOOK_GENERATOR_CPUS/)
  const three = coresPlanText(pin('1-3', '0'), [1, 2, 3, 6])
  t.assert.match(
    three,
    /Up to 3 workers each has a core of its own, so req\/s should climb .*; 6 workers share the cores/,
  )
  t.assert.doesNotMatch(three, /contended/)
  const shared = coresPlanText(pin('0-1', '0'), [1, 2, 4])
  t.assert.match(shared, /They share CPU 0: every figure below is contended/)
  t.assert.match(shared, /one the generator also uses/)
  const off = coresPlanText(
    {
      enabled: false,
      server: null,
      generator: null,
      reason: 'off: WORKBOOK_PIN=0',
      serverCpus: [],
      generatorCpus: [],
      sharedCpus: [],
    },
    [1, 2],
  )
  t.assert.match(off, /Pinning is off \(off: WORKBOOK_PIN=0\)/)
})

test('WORKBOOK_SERVER_CPUS and WORKBOOK_GENERATOR_CPUS set the pinning, say when they overlap, and refuse bad lists', (t) => {
  const allowed = cpuList(/^Cpus_allowed_list:\s*(\S+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1])
  if (allowed.length < 2) return t.skip('needs 2 CPUs')
  const pinned = (env) =>
    spawnSync(
      NODE,
      [
        '-e',
        // The module alone (70 ms), not the whole harness (1.3 s to load, six times over).
        'try { console.log(JSON.stringify(require("./harness/dist/core/pinning.js").pinning())) } catch (e) { console.log(e.message) }',
      ],
      // The CPU lists alone: not the switches that turn pinning off (WORKBOOK_PIN=0, WORKBOOK_READINGS=portable).
      { cwd: ROOT, env: { ...withoutSwitches, ...env }, encoding: 'utf8' },
    ).stdout.trim()
  const { WORKBOOK_PIN, WORKBOOK_READINGS, ...withoutSwitches } = process.env
  const [a, b] = allowed
  const both = JSON.parse(pinned({ WORKBOOK_SERVER_CPUS: `${a},${b}`, WORKBOOK_GENERATOR_CPUS: String(a) }))
  t.assert.deepStrictEqual([both.server, both.generator], [`${a},${b}`, String(a)])
  t.assert.deepStrictEqual([both.serverCpus, both.generatorCpus, both.sharedCpus], [[a, b], [a], [a]])
  t.assert.match(both.reason, new RegExp(`CPU ${a} shared, so the numbers are contended`))
  const apart = JSON.parse(pinned({ WORKBOOK_SERVER_CPUS: String(b), WORKBOOK_GENERATOR_CPUS: String(a) }))
  t.assert.deepStrictEqual([apart.serverCpus, apart.generatorCpus, apart.sharedCpus], [[b], [a], []])
  t.assert.doesNotMatch(apart.reason, /contended/)
  const off = JSON.parse(pinned({ WORKBOOK_PIN: '0' }))
  t.assert.deepStrictEqual([off.enabled, off.serverCpus, off.generatorCpus, off.sharedCpus], [false, [], [], []])
  t.assert.match(
    pinned({ WORKBOOK_SERVER_CPUS: String(b) }),
    /set both WORKBOOK_SERVER_CPUS and WORKBOOK_GENERATOR_CPUS/,
  )
  t.assert.match(pinned({ WORKBOOK_SERVER_CPUS: 'x', WORKBOOK_GENERATOR_CPUS: '0' }), /a CPU list such as "0", "1-3"/)
  t.assert.match(
    pinned({ WORKBOOK_SERVER_CPUS: '4095', WORKBOOK_GENERATOR_CPUS: String(a) }),
    /CPU 4095 is not one this process may use/,
  )
})

test('processTree and readTreeUsage: a process with children is all of them, its CPU and memory summed', async (t) => {
  // A parent that starts two children and says "ready" once both have run their first line of
  // JavaScript (so each is a whole Node process in memory, not a fork still exec'ing: CI once read
  // the tree in that instant and saw children lighter than their parent); all three idle until killed.
  const script = `const { spawn } = require('node:child_process')
    let ready = 0
    for (let i = 0; i < 2; i++) {
      const child = spawn(process.execPath, ['-e', 'process.stdout.write("up"); setInterval(() => {}, 1000)'], { stdio: ['ignore', 'pipe', 'ignore'] })
      child.stdout.once('data', () => { if (++ready === 2) process.stdout.write('ready') })
    }
    setInterval(() => {}, 1000)`
  const parent = spawn(NODE, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'], detached: true })
  t.after(() => {
    try {
      process.kill(-parent.pid, 'SIGKILL')
    } catch {}
  })
  let said = ''
  parent.stdout.on('data', (d) => {
    said += d
  })
  t.assert.ok(await waitUntil(() => said === 'ready', 10000), `the parent said ${JSON.stringify(said)}, not "ready"`)
  const tree = await processTree(parent.pid)
  t.assert.strictEqual(tree[0], parent.pid)
  if (NONE) {
    t.assert.deepStrictEqual(tree, [parent.pid])
    t.assert.strictEqual(await readTreeUsage(parent.pid, tree), null)
    return
  }
  t.assert.strictEqual(tree.length, 3, `tree: ${tree}`)
  const sum = await readTreeUsage(parent.pid, tree)
  const each = await Promise.all(tree.map((pid) => readUsage(pid)))
  t.assert.ok(Math.abs(sum.rssMB - each.reduce((a, u) => a + u.rssMB, 0)) < 5, JSON.stringify({ sum, each }))
  // Every Node process that has run JavaScript holds well over 10 MB resident, so two children add
  // more than 20 MB to the parent's own.
  t.assert.ok(sum.rssMB - each[0].rssMB > 20, `three processes weigh more than one: ${JSON.stringify({ sum, each })}`)
  t.assert.strictEqual(await readTreeUsage(2 ** 22 + 7, [2 ** 22 + 7]), null) // no such process
})

test("readThreads: a process's threads by the names Node gives them, the main one, libuv's pool, a worker", async (t) => {
  // A process that starts a worker and uses the pool once (libuv starts its four threads then), then
  // spins its main thread until that thread has used 300 ms of CPU (however busy the machine), then says "ready".
  const script = `const { Worker } = require('node:worker_threads')
    const w = new Worker('setInterval(() => {}, 1000)', { eval: true })
    w.on('online', () => require('node:fs').readFile(__filename, () => {
      const used = () => { const u = process.threadCpuUsage(); return (u.user + u.system) / 1000 }
      while (used() < 300) {}
      process.stdout.write('ready')
    }))
    setInterval(() => {}, 1000)`
  const child = spawn(NODE, ['-e', script], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, UV_THREADPOOL_SIZE: '3' },
  })
  t.after(() => child.kill('SIGKILL'))
  let said = ''
  child.stdout.on('data', (d) => {
    said += d
  })
  t.assert.ok(await waitUntil(() => said === 'ready', 10000), `the child said ${JSON.stringify(said)}, not "ready"`)
  const r = readThreads(child.pid)
  t.assert.deepStrictEqual([r.count.main, r.count.pool, r.count.workers], [1, 3, 1], JSON.stringify(r))
  t.assert.ok(r.count.v8 >= 1, JSON.stringify(r)) // V8's helper threads, one per core or so
  t.assert.ok(r.cpuMs.main >= 200, JSON.stringify(r))
  t.assert.ok(r.cores >= 1, JSON.stringify(r))
  t.assert.strictEqual(readThreads(2 ** 22 + 7), null) // no such process
})

for (const mode of ['cluster', 'reuseport']) {
  test(`every-core, ${mode} of 2: each worker counts its own /json requests, the harness sees every process, and stop leaves none`, async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-every-core-'))
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
    const app = await startApp('every-core', { env: { MODE: mode, WORKERS: '2', STATS_DIR: dir } })
    let tree = []
    try {
      tree = await processTree(app.pid)
      t.assert.strictEqual(tree.length, NONE ? 1 : 3, `the primary and 2 workers: ${tree}`)
      const N = 40
      for (let i = 0; i < N; i++) {
        const res = await fetch(`${app.url}/json`, { headers: { connection: 'close' } }) // a new connection each
        t.assert.deepStrictEqual(await res.json(), { hello: 'world' })
      }
      t.assert.ok(
        await waitUntil(() => {
          // Each process writes its figures every 200 ms: forty requests can take less than that.
          if (!fs.readdirSync(dir).some((f) => f.endsWith('.json'))) return false
          const s = readProcessStats(dir)
          return s.length === 3 && spreading(s).requests === N
        }, 3000),
        `the workers' counts: ${JSON.stringify(fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')))}`,
      )
      const stats = readProcessStats(dir)
      t.assert.deepStrictEqual(
        stats.map((s) => s.role),
        ['primary', 'worker', 'worker'],
      )
      t.assert.strictEqual(stats[0].requests, 0, 'the primary answers nothing')
      if (!NONE) {
        const [whole, primary] = [(await readTreeUsage(app, tree)).rssMB, (await readUsage(app)).rssMB]
        t.assert.ok(
          whole > primary * 2,
          `the tree is the primary and its workers: ${whole} MB, the primary ${primary} MB`,
        )
      }
    } finally {
      await app.stop()
    }
    t.assert.ok(await waitUntil(() => tree.every((pid) => !alive(pid)), 5000), `left running: ${tree.filter(alive)}`)
  })
}

test('every-core refuses a MODE or WORKERS it does not know, saying which', async (t) => {
  for (const [env, why] of [
    [{ MODE: 'threads' }, /MODE must be one of single, cluster, reuseport, got "threads"/],
    [{ MODE: 'cluster', WORKERS: '0' }, /WORKERS must be a whole number of at least 1, got "0"/],
  ]) {
    await t.assert.rejects(startApp('every-core', { env }), (e) => why.test(e.stderr ?? e.message))
  }
})

test("publishedThreading: no study published its cores, so perCore divides only this machine's runs", (t) => {
  t.assert.ok(publishedThreading.length >= 6)
  for (const r of publishedThreading) {
    t.assert.strictEqual(r.cores, null, r.server)
    t.assert.strictEqual(perCore(r.reqPerSec, r.cores), null, r.server)
    t.assert.ok(r.reqPerSec === null || r.reqPerSec > 1000, r.server)
  }
  const servers = publishedThreading.map((r) => r.server)
  for (const s of ['Elysia on Bun', 'Encore.ts', 'Perfect', 'Zewo', 'Osgood']) t.assert.ok(servers.includes(s), s)
  for (const r of publishedThreading.filter((x) => x.study.startsWith('Elysia vs Encore'))) {
    t.assert.match(r.machine, /i7-13700K/, r.server)
  }
  t.assert.strictEqual(perCore(40_000, 2), 20_000)
  t.assert.strictEqual(perCore(40_000, 0), null)
  t.assert.strictEqual(perCore(null, 4), null)
})

test("publishedSwiftNode: the study's routes map to the workbook's, every Swift server says why it cannot run here", (t) => {
  const study = require('@workbook/harness').published.swiftNode
  t.assert.deepStrictEqual(
    study.routes.map((r) => r.path),
    ['/blog', '/json'],
  )
  t.assert.match(study.routes[1].here, /GET \/random/)
  t.assert.deepStrictEqual(
    study.tests.find((x) => x.kind === 'memory').loads.map((l) => l.connections),
    [10, 100],
  )
  const swift = study.servers.filter((s) => s.language === 'Swift')
  t.assert.deepStrictEqual(
    swift.map((s) => s.server),
    ['Perfect', 'Vapor', 'Kitura', 'Zewo'],
  )
  for (const s of swift) {
    t.assert.strictEqual(s.runsHere, false, s.server)
    t.assert.match(s.note, /no Swift toolchain here/, s.server)
  }
  for (const name of ['Perfect', 'Zewo']) {
    const row = publishedThreading.find((r) => r.server === name)
    t.assert.strictEqual(row.threads, swift.find((s) => s.server === name).threads)
    t.assert.match(row.study, /wrk -d 10m -t 4 -c 20/)
  }
})
