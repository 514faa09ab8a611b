'use strict'
const { test } = require('node:test')
const h = require('@workbook/harness')
const { running } = require('@workbook/harness/internal')
const { fixture, server, alive, waitUntil, freePort } = require('./helpers')
const { startApp } = require('./helpers').internal('apps/start')
const { AppStartError } = require('./helpers').internal('core/errors')

test('startApp starts a registered app on a free loopback port and stop() exits it cleanly', async (t) => {
  const app = await startApp('hello-http')
  t.after(() => app.stop())
  t.assert.match(app.url, /^http:\/\/127\.0\.0\.1:\d+$/)
  t.assert.ok(app.port > 0)
  const res = await fetch(`${app.url}/`)
  t.assert.deepStrictEqual(await res.json(), { hello: 'world' })
  t.assert.deepStrictEqual(running(), [app.groupId])
  const info = await app.stop()
  t.assert.deepStrictEqual(info, { code: 0, signal: null })
  t.assert.strictEqual(alive(app.pid), false)
  t.assert.deepStrictEqual(running(), [])
})

test("a checklist's allStopped fails while an app the harness started runs, and passes once it stopped", async (t) => {
  const { checklist } = require('./helpers').internal('prose/checks')
  const app = await startApp('hello-http')
  t.after(() => app.stop())
  const during = checklist().allStopped()
  t.assert.deepStrictEqual(during.failed, ['every app the notebook started has stopped (1 still running)'])
  await app.stop()
  const afterwards = checklist().allStopped()
  t.assert.deepStrictEqual(afterwards.passed, ['every app the notebook started has stopped (0 still running)'])
  t.assert.deepStrictEqual(afterwards.failed, [])
})

test('an app that crashes at start fails fast, saying so, with the end of its stderr as a field', async (t) => {
  const started = Date.now()
  await t.assert.rejects(startApp({ entry: fixture('crash-at-start.js') }), (err) => {
    t.assert.ok(err instanceof AppStartError)
    t.assert.strictEqual(err.code, 'WB_APP_EXITED')
    t.assert.match(err.summary, /^app "crash-at-start" exited with code 1 before it listened$/)
    t.assert.match(err.stderr, /planted failure: missing configuration DATABASE_URL/)
    t.assert.match(
      err.message,
      /Try: it crashed while starting[\s\S]*--- stderr \(last lines\) ---[\s\S]*planted failure/,
    )
    return true
  })
  t.assert.ok(Date.now() - started < 10_000)
})

test('an app answering 404 on its probe path fails with the status, the body and a hint', async (t) => {
  await t.assert.rejects(startApp({ entry: fixture('not-found.js'), probe: '/' }), (err) => {
    t.assert.strictEqual(err.code, 'WB_APP_PROBE')
    t.assert.match(err.message, /answered 404 to GET \/: no such route/)
    t.assert.match(err.message, /Try: does the app serve \/\?/)
    return true
  })
})

test('an unknown app name is refused with the list of known apps, and the way to pass a file', async (t) => {
  await t.assert.rejects(startApp('no-such-app'), (err) => {
    t.assert.strictEqual(err.code, 'WB_APP_NOT_FOUND')
    t.assert.match(
      err.message,
      /no app named "no-such-app" in the registry\nTry: pass a path to a server file .*hello-http/,
    )
    return true
  })
  await t.assert.rejects(startApp('./no/such/server.js'), /app entry not found: .*no\/such\/server\.js/)
})

test('stop() escalates to SIGKILL and reaps the whole process group', async (t) => {
  const app = await startApp({ entry: fixture('ignores-sigint.js') }, { probe: false })
  const grandchild = JSON.parse(
    app
      .stdout()
      .split('\n')
      .find((l) => l.includes('grandchild')),
  ).grandchild
  t.assert.ok(alive(grandchild))
  const info = await app.stop({ timeoutMs: 500 })
  t.assert.strictEqual(info.signal, 'SIGKILL')
  t.assert.ok(await waitUntil(() => !alive(grandchild), 3000), 'grandchild still alive')
  t.assert.match(app.stderr(), /ignored SIGINT for 500 ms: killed/)
})

test('withApp stops the app even when the body throws', async (t) => {
  let pid = 0
  await t.assert.rejects(
    h.withApp('hello-http', async (app) => {
      pid = app.pid
      throw new Error('cell failed')
    }),
    /cell failed/,
  )
  t.assert.ok(pid > 0)
  t.assert.strictEqual(alive(pid), false)
})

test('an app that exits by itself is no longer tracked, and its group is reaped', async (t) => {
  const app = await startApp({ entry: fixture('dies-under-load.js') }, { probe: false })
  t.assert.ok(running().includes(app.groupId))
  process.kill(app.pid, 'SIGTERM')
  await app.exited
  t.assert.ok(await waitUntil(() => !running().includes(app.groupId), 2000))
})

test('a runtime that does not exist fails at once, with the OS error', async (t) => {
  const before = running().length
  const started = Date.now()
  await t.assert.rejects(startApp('hello-http', { runtime: '/nonexistent/bin/bun' }), (err) => {
    t.assert.ok(err instanceof AppStartError)
    t.assert.strictEqual(err.code, 'WB_APP_SPAWN')
    t.assert.match(err.message, /could not start app "hello-http": no such file: \/nonexistent\/bin\/bun/)
    return true
  })
  t.assert.ok(Date.now() - started < 2000)
  t.assert.strictEqual(running().length, before)
})

test('a probe path that leads off loopback is refused, and the app is stopped', async (t) => {
  const before = running().length
  await t.assert.rejects(
    startApp('hello-http', { probe: '//example.com/' }),
    /listens but GET \/\/example\.com\/ failed: refusing path/,
  )
  t.assert.strictEqual(running().length, before)
})

test('apps run on their own core and the result says so; pin: false runs them anywhere', async (t) => {
  const p = h.pinning()
  const pinned = await startApp('hello-http')
  t.after(() => pinned.stop())
  const free = await startApp('hello-http', { pin: false })
  t.after(() => free.stop())
  const allowed = (pid) =>
    /Cpus_allowed_list:\s*(\S+)/.exec(require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8'))[1]
  if (!p.enabled) return t.skip(`pinning is off here: ${p.reason}`)
  t.assert.strictEqual(pinned.cpus, p.server)
  t.assert.strictEqual(allowed(pinned.pid), p.server)
  t.assert.strictEqual(free.cpus, null)
  t.assert.notStrictEqual(allowed(free.pid), p.server)
})

// Ordinary servers: not the workbook's, no JSON line, no contract. The probe hears them listen.

test("an ordinary server on PORT (a tutorial's server) starts, its log line kept, and its address learnt from itself", async (t) => {
  const app = await startApp(server('env-port.js'))
  t.after(() => app.stop())
  t.assert.strictEqual(app.name, 'env-port')
  t.assert.deepStrictEqual(await (await fetch(app.url)).json(), { hello: 'world' })
  t.assert.match(app.stdout(), /Server running/)
  const info = await app.stop()
  t.assert.deepStrictEqual(info, { code: 0, signal: null }, 'SIGINT ends it cleanly, though it has no handler')
})

test('a server listening on all interfaces is loaded on loopback, with a warning', async (t) => {
  const app = await startApp(server('env-port.js'))
  t.after(() => app.stop())
  t.assert.match(app.url, /^http:\/\/127\.0\.0\.1:\d+$/)
  t.assert.match(app.warning, /listens on all interfaces \((::|0\.0\.0\.0):\d+\).*loads it on 127\.0\.0\.1 only/)
})

test('a server on a fixed port of its own, an ES module, and an express app all start', async (t) => {
  const port = await freePort()
  await h.withApp(
    server('fixed-port.js'),
    async (app) => {
      t.assert.strictEqual(app.port, port)
      t.assert.strictEqual(await (await fetch(app.url)).text(), 'fixed\n')
    },
    { env: { FIXED_PORT: String(port) } },
  )
  await h.withApp(server('esm-server.mjs'), async (app) =>
    t.assert.strictEqual(await (await fetch(app.url)).text(), 'esm\n'),
  )
  await h.withApp(server('express-server.js'), async (app) => {
    t.assert.deepStrictEqual(await (await fetch(app.url)).json(), { framework: 'express' })
  })
})

test('an app with its own SIGINT handler keeps it: the harness does not exit for it', async (t) => {
  const app = await startApp(server('own-sigint.js'))
  const info = await app.stop()
  t.assert.deepStrictEqual(info, { code: 0, signal: null })
  t.assert.match(app.stdout(), /goodbye from the app's own handler/)
})

test('a server that listens twice is refused with both addresses and the options that name the port, unless one is given', async (t) => {
  await t.assert.rejects(startApp(server('listens-twice.js')), (err) => {
    t.assert.strictEqual(err.code, 'WB_APP_LISTENED_TWICE')
    t.assert.match(err.message, /listens on 2 addresses \(127\.0\.0\.1:\d+ and 127\.0\.0\.1:\d+\)/)
    t.assert.match(err.hint, /make diagnose APP=\.\.\. PORT=N/)
    t.assert.match(err.hint, /\{ port: N \} of startApp/)
    return true
  })
  t.assert.deepStrictEqual(running(), [])
  // port "free": the app gets a free port in PORT, and of its two addresses the one on it is loaded
  await h.withApp(
    server('listens-twice.js'),
    async (app) => t.assert.strictEqual(await (await fetch(app.url)).text(), 'app\n'),
    { port: 'free' },
  )
  // a port named: given in PORT too, so a server that reads PORT listens there
  const port = await freePort()
  await h.withApp(
    server('listens-twice.js'),
    async (app) => {
      t.assert.strictEqual(app.port, port)
      t.assert.strictEqual(await (await fetch(app.url)).text(), 'app\n')
    },
    { port },
  )
  // a server that listens once, on a port of its own, is loaded there with port "free" too
  const own = await freePort()
  await h.withApp(server('fixed-port.js'), async (app) => t.assert.strictEqual(app.port, own), {
    env: { FIXED_PORT: String(own) },
    port: 'free',
  })
})

test('a script that ends without serving is told apart from a crash', async (t) => {
  await t.assert.rejects(startApp(server('exits-quietly.js')), (err) => {
    t.assert.strictEqual(err.code, 'WB_APP_EXITED')
    t.assert.match(err.summary, /exited with code 0 before it listened/)
    t.assert.match(err.hint, /it ended without error: it never started a server/)
    t.assert.match(err.stdout, /computed 42; nothing to serve/)
    return true
  })
})

test("an app's printed command runs as printed in a shell at the workbook's root, from the root or its own folder", async (t) => {
  const { spawn } = require('node:child_process')
  for (const ref of ['hello-http', server('env-port.js')]) {
    const app = await startApp(ref, { pin: false })
    const printed = app.command
    await app.stop()
    t.assert.doesNotMatch(printed, /(^|[\s(&])node\s/, `a bare node: ${printed}`)
    t.assert.ok(!printed.includes(h.repoRoot), `the checkout's folder: ${printed}`)
    const port = await freePort()
    const child = spawn('bash', ['-c', `${printed.replace(/PORT=\d+/, `PORT=${port}`)}`], {
      cwd: h.repoRoot,
      detached: true,
      stdio: 'ignore',
    })
    t.after(() => {
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {}
    })
    const answered = await waitUntil(
      async () => (await fetch(`http://127.0.0.1:${port}/`).catch(() => null))?.status,
      10_000,
    )
    t.assert.ok(answered, `no answer on ${port} from: ${printed}`)
    process.kill(-child.pid, 'SIGKILL')
  }
})
