'use strict'
// A study's command beside the one that ran (harness/src/published/as-published.ts): every command of the
// five studies read as its tool reads it, every difference said (the route first: notebook 03 once printed
// the Swift study's `.../blog` beside a run of `/random` and called nothing different), the plan of
// `make as-published` against each study's own flags, and the 2022 table's own inconsistencies.
const { test } = require('node:test')
const { published } = require('@workbook/harness')
const { internal } = require('./helpers')
const studies03 = require('../../notebooks/03-studies.ts')

const { parseLoad, loadDifferences, ranLoad, readAsPublished } = internal('published/as-published')
const { asPublishedPlan } = internal('published/as-published-plan')

/** The fields of a LoadResult that the differences and the table read. */
const ran = ({ tool = 'wrk', path = '/hello', method = 'GET', connections = 10, threads = 1, seconds = 1 } = {}) => ({
  url: `http://127.0.0.1:41235${path}`,
  method,
  connections,
  durationSeconds: seconds,
  warmupSeconds: 1,
  generator: { name: tool },
  command:
    tool === 'wrk'
      ? `taskset -c 0 wrk -t${threads} -c${connections} -d${seconds}s --latency --timeout 10s -s harness/wrk/report.lua http://127.0.0.1:41235${path}`
      : `taskset -c 0 npx autocannon -c ${connections} -d ${seconds} -t 10 http://127.0.0.1:41235${path}`,
})

test("parseLoad reads every study's command as its tool reads it, defaults filled in", (t) => {
  const p = (c) => {
    const { tool, method, path, connections, threads, seconds } = parseLoad(c)
    return [tool, method, path, connections, threads, seconds]
  }
  // the article: autocannon, flag joined to its value, no scheme, autocannon's 10 s
  t.assert.deepStrictEqual(p(published.etag.rows[0].load.command), ['autocannon', 'GET', '/seed/v1', 100, null, 10])
  // the 2022 table: flags spaced, the URL between them, the route /
  t.assert.deepStrictEqual(p(published.frameworks2022.load.command), ['wrk', 'GET', '/', 500, 12, 300])
  // Osgood: no -t, so wrk's default 2 threads
  t.assert.deepStrictEqual(p(published.osgood.load.command), ['wrk', 'GET', '/hello', 10, 2, 60])
  // the Swift study: its host with (PORT) in it; the memory test's commands name no route
  const [blog, json] = published.swiftNode.tests.find((x) => x.kind === 'routes').loads
  t.assert.deepStrictEqual(p(blog.command), ['wrk', 'GET', '/blog', 20, 4, 600])
  t.assert.deepStrictEqual(p(json.command), ['wrk', 'GET', '/json', 20, 4, 600])
  t.assert.deepStrictEqual(p('wrk -d 1m -t 8 -c 100'), ['wrk', 'GET', null, 100, 8, 60])
  // oha: -z is its duration, -d its body (not a duration), -m its method; a quoted URL with its query
  const EE = published.elysiaEncore
  t.assert.deepStrictEqual(p(EE.commands.bare), ['oha', 'GET', '/hello', 450, null, 10])
  t.assert.deepStrictEqual(p(EE.commands.validated), ['oha', 'POST', '/schema?name=test&excitement=123', 450, null, 10])
  t.assert.deepStrictEqual(p(EE.commands.upstream).slice(3), [150, null, 10])
  // the harness's own lines: past the environment and taskset, never taskset's -c
  t.assert.deepStrictEqual(p(`WORKBOOK_WRK_METHOD=POST ${ran({ connections: 500, threads: 1, seconds: 3 }).command}`), [
    'wrk',
    'GET',
    '/hello',
    500,
    1,
    3,
  ])
  t.assert.deepStrictEqual(p(ran({ tool: 'autocannon', connections: 100 }).command), [
    'autocannon',
    'GET',
    '/hello',
    100,
    null,
    1,
  ])
})

test('loadDifferences says each aspect that differs, both sides in words, and nothing where the loads agree', (t) => {
  const O = published.osgood.load
  // the same load, the same versions, on the machine it measured as the post did: nothing differs
  const same = {
    tool: 'wrk',
    method: 'GET',
    path: '/hello',
    connections: 10,
    threads: 2,
    seconds: 60,
    warmupSeconds: 0,
  }
  t.assert.deepStrictEqual(loadDifferences(O, same, { versions: { Node: '12.7.0', wrk: '4.0.0' } }), [])
  // notebook 05's quick run: one thread, 3 s, this Node
  const quick = loadDifferences(
    O,
    { ...same, threads: 1, seconds: 3 },
    { versions: { Node: '26.10.0' }, durationFrom: 'the quick profile' },
  )
  t.assert.deepStrictEqual(
    quick.map((d) => [d.aspect, d.published, d.here]),
    [
      ['threads', '2', '1 (one per CPU the generator is given)'],
      ['duration', '60 s', '3 s (the quick profile)'],
      ['Node version', '12.7.0', '26.10.0'],
    ],
  )
  // the 2022 table: its route is /, its connections 500, wrk on the machine it measured
  const t2022 = loadDifferences(
    published.frameworks2022.load,
    { ...same, connections: 100, threads: 1, seconds: 1 },
    {
      versions: { Node: '16.14.0' },
    },
  )
  t.assert.deepStrictEqual(
    t2022.map((d) => d.aspect),
    ['route', 'connections', 'threads', 'duration'],
  )
  t.assert.deepStrictEqual([t2022[0].published, t2022[0].here], ['GET /', 'GET /hello'])
  // oha's load run by wrk: the generator, and wrk's threads against oha's own
  const oha = loadDifferences(published.elysiaEncore.loads.bare, { ...same, connections: 450, seconds: 10, threads: 1 })
  t.assert.deepStrictEqual(
    oha.map((d) => d.aspect),
    ['load generator', 'threads'],
  )
  t.assert.match(oha[0].here, /^wrk \((oha is not installed here|the workbook measures with wrk)\)$/)
  // a study that loaded from a second machine, and one that does not say
  const [blog] = published.swiftNode.tests.find((x) => x.kind === 'routes').loads
  const where = loadDifferences(blog, { ...same, path: '/blog', connections: 20, threads: 4, seconds: 600 })
  t.assert.deepStrictEqual(
    where.map((d) => [d.aspect, d.published]),
    [['where the load generator ran', 'on a second machine (a 2015 MacBook Pro), over a Thunderbolt 2 bridge']],
  )
  const memory = loadDifferences(published.swiftNode.tests.find((x) => x.kind === 'memory').loads[0], {
    ...same,
    path: '/blog',
    threads: 4,
    seconds: 60,
  })
  t.assert.deepStrictEqual(
    memory.map((d) => [d.aspect, d.published]),
    [
      ['route', 'none named in its command'],
      ['where the load generator ran', 'not stated'],
    ],
  )
  // a warm-up where the study says it had none; a version the study does not name
  const atSlow = { ...same, tool: 'autocannon', path: '/seed/v1', connections: 100, threads: null, seconds: 10 }
  const versions = { Node: '8.11.2 or later', restify: '12.0.0', other: '1' }
  const slow = loadDifferences(published.etag.rows[0].load, { ...atSlow, warmupSeconds: 1 }, { versions })
  t.assert.deepStrictEqual(
    slow.map((d) => [d.aspect, d.published, d.here]),
    [
      ['warm-up', '0 s', '1 s'],
      ['restify version', '7.1.0', '12.0.0'],
      ['other version', 'none named', '1'],
    ],
  )
})

test("the route is compared: today's Swift row (the study's /blog beside a run of /random) says it differs", (t) => {
  const [blog] = published.swiftNode.tests.find((x) => x.kind === 'routes').loads
  // notebook 03 before this test: the routes test's first command against the last route that ran
  const todays = published.beside(
    [{ study: 'Swift vs Node, Express /random', published: blog, ran: ran({ path: '/random', connections: 20 }) }],
    null,
  )
  t.assert.match(todays, /route: here GET \/random, in the study GET \/blog/)
  // as notebook 03 pairs them now: each run with the study's command for the same route
  const rows = studies03.swiftRows(
    ['/blog', '/random'].flatMap((p) =>
      [20, 10, 100].map((c) => ({
        app: 'express',
        title: 'Express',
        path: p,
        connections: c,
        ran: ran({ path: p, connections: c }),
      })),
    ),
  )
  const herePath = Object.fromEntries(published.swiftNode.routes.map((r) => [r.path, r.herePath]))
  for (const row of rows) {
    const studyPath = parseLoad(row.published.command).path
    const here = new URL(row.ran.url).pathname
    if (studyPath === null) continue // the memory test's commands name no route
    t.assert.strictEqual(herePath[studyPath], here, `${row.study}: the study's ${studyPath} beside a run of ${here}`)
  }
  t.assert.deepStrictEqual(
    rows
      .filter((r) => parseLoad(r.published.command).path !== null)
      .map((r) => [r.key, parseLoad(r.published.command).path]),
    [
      ['swiftNode/express /blog c20', '/blog'],
      ['swiftNode/express /random c20', '/json'],
    ],
  )
  // and the pair that differs in name says why it is the same answer
  const table = published.beside(rows.slice(3, 4), null)
  t.assert.match(
    table,
    /route: here GET \/random \(it answers what the study's \/json answered\), in the study GET \/json/,
  )
})

test('the table shows the full-length record where one has run the key, and says when there is none', (t) => {
  const O = published.osgood
  const row = {
    key: 'osgood/node-http',
    study: 'Osgood, node:http',
    published: O.load,
    ran: ran({ connections: 10, seconds: 3 }),
  }
  const none = published.beside([row], null)
  t.assert.match(none, /No full-length record yet: `make as-published`/)
  t.assert.match(none, /\| Osgood, node:http \| `wrk -d 60 -c 10 http:\/\/localhost:3000\/hello` \|/)
  const record = {
    ranAt: '2026-12-06T10:00:00.000Z',
    machine: 'a CPU, 2 CPUs',
    node: '26.10.0',
    generator: 'wrk 4.1.0',
    pinning: 'apps on CPU 1, load generator on CPU 0',
    tookSeconds: 3000,
    runs: {
      'osgood/node-http': {
        study: 'x',
        published: O.load.command,
        ran: { tool: 'wrk', method: 'GET', path: '/hello', connections: 10, threads: 2, seconds: 60, warmupSeconds: 0 },
        command: 'wrk',
        serverCommand: null,
        reqPerSecRuns: [20_000],
        reqPerSec: 20_000,
        latencyMs: { mean: 0.5, p99: 1.2, max: 9 },
        cpuPerRequestUs: 40,
        generatorSaturated: false,
        errors: 0,
        statusCodes: {},
        bytesPerSec: 1,
        rssPeakMB: 50,
        threadsPeak: 7,
      },
    },
  }
  const full = published.beside([row, { ...row, ran: null }, { ...row, key: 'osgood/other' }], record)
  t.assert.match(full, /20,000 req\/s, mean 0\.5 ms, p99 1\.20 ms, 60 s/)
  t.assert.match(full, /`make as-published` on 2026-12-06, on a CPU, 2 CPUs .*\): 1 run, 50 min in all\./)
  // made in parts: each run's own day, and how many of the plan's runs it holds
  const later = { ...record.runs['osgood/node-http'], ranAt: '2026-12-07T01:00:00.000Z' }
  const parts = published.beside([row], { ...record, planned: 18, runs: { ...record.runs, 'osgood/other': later } })
  t.assert.match(parts, /on 2026-12-06 and 2026-12-07, on a CPU.*\): 2 runs of the 18 planned, 50 min in all\./)
  const whole = published.beside([row], { ...record, planned: 2, runs: { ...record.runs, 'osgood/other': later } })
  t.assert.match(whole, /\): all 2 runs, 50 min in all\./)
  t.assert.match(full, /not in this run \| Node version: here 26\.10\.0, in the study 12\.7\.0/)
  t.assert.match(full, /\| not in the record \|/)
  t.assert.strictEqual(readAsPublished('/nonexistent/as-published.json'), null)
})

test("make as-published runs every study's command at its own connections, threads and length", (t) => {
  const plan = asPublishedPlan()
  t.assert.strictEqual(new Set(plan.map((r) => r.key)).size, plan.length, 'keys are unique')
  t.assert.deepStrictEqual(
    [...new Set(plan.map((r) => r.key.split('/')[0]))],
    ['etag', 'frameworks2022', 'osgood', 'swiftNode', 'elysiaEncore'],
  )
  for (const r of plan) {
    const p = parseLoad(r.published.command)
    t.assert.strictEqual(r.connections, p.connections, r.key)
    t.assert.strictEqual(r.seconds, p.seconds, r.key)
    if (p.tool === 'wrk') t.assert.strictEqual(r.threads, p.threads, `${r.key}: wrk's -t as the study set it`)
    else t.assert.strictEqual(r.threads, undefined, r.key)
    t.assert.strictEqual(r.generator, p.tool === 'autocannon' ? 'autocannon' : 'wrk', `${r.key}: wrk for oha`)
    if (p.path !== null && p.path !== '/') {
      const mapped = published.swiftNode.routes.find((x) => x.path === p.path)?.herePath
      const elysia = r.key === 'elysiaEncore/schema defined route'
      if (!elysia)
        t.assert.strictEqual(r.path, mapped ?? p.path, `${r.key}: the study's route, or the one that answers the same`)
    }
  }
  // the studies' own lengths: 10 s, 5 min, 60 s, 10 and 1 min, 10 s (five runs, the best kept)
  const seconds = (prefix) => plan.filter((r) => r.key.startsWith(prefix)).map((r) => r.seconds * r.repeats)
  t.assert.deepStrictEqual(seconds('etag'), [10, 10, 10])
  t.assert.deepStrictEqual(seconds('frameworks2022'), [300, 300, 300, 300, 300])
  t.assert.deepStrictEqual(seconds('osgood'), [60])
  t.assert.deepStrictEqual(seconds('swiftNode'), [600, 600, 60, 60, 60, 60])
  t.assert.deepStrictEqual(seconds('elysiaEncore'), [50, 50, 50])
  // the notebooks' rows look up these keys
  const nb2022 = studies03
    .asPublished2022(
      () => null,
      () => '1',
    )
    .map((r) => r.key)
  t.assert.deepStrictEqual(
    nb2022,
    plan.filter((r) => r.key.startsWith('frameworks2022')).map((r) => r.key),
  )
  const swift = studies03
    .swiftRows(
      ['/blog', '/random'].flatMap((p) =>
        [20, 10, 100].map((c) => ({ app: 'express', title: 'Express', path: p, connections: c, ran: null })),
      ),
    )
    .map((r) => r.key)
  t.assert.deepStrictEqual(
    swift.sort(),
    plan
      .filter((r) => r.key.startsWith('swiftNode'))
      .map((r) => r.key)
      .sort(),
  )
})

test("the 2022 table's own inconsistencies: the cells that repeat another row's wrk output", (t) => {
  const found = studies03.inconsistencies2022()
  t.assert.deepStrictEqual(
    found.map((f) => [f.label, f.column, f.table, f.output, f.copies]),
    [
      ['micro', 'transfer/s', 6.66, 4.36, 'http'],
      ['micro', 'latency', 6.18, 7.07, 'http'],
      ['egg', 'transfer/s', 2.25, 4.68, 'express'],
    ],
  )
  t.assert.match(
    studies03.inconsistenciesText(found),
    /micro's transfer\/s: the table prints 6\.66 MB, its own wrk output 4\.36 MB; 6\.66 is http's/,
  )
  // a table that copies nothing has nothing to say
  const T = published.frameworks2022
  const clean = {
    ...T,
    rows: T.rows.map((r) => ({
      ...r,
      table: { ...r.table, transferMB: r.wrk.transferMB, latencyMs: r.wrk.latency.meanMs },
    })),
  }
  t.assert.deepStrictEqual(studies03.inconsistencies2022(clean), [])
  t.assert.strictEqual(studies03.inconsistenciesText([]), 'The table and its wrk outputs agree on every row.')
  // each answer's size from its transfer/s: http's 6.66 MB/s at 39,006 req/s is 179 bytes
  t.assert.strictEqual(Math.round(studies03.bytesPerAnswer(6.66, 39_006.28)), 179)
})

test("ranLoad reads what ran from a load: its route with the query, wrk's -t, autocannon without threads", (t) => {
  t.assert.deepStrictEqual(ranLoad({ ...ran({ path: '/schema?name=test', threads: 1, connections: 450 }) }), {
    tool: 'wrk',
    method: 'GET',
    path: '/schema?name=test',
    connections: 450,
    threads: 1,
    seconds: 1,
    warmupSeconds: 1,
  })
  t.assert.strictEqual(ranLoad(ran({ tool: 'autocannon' })).threads, null)
})
