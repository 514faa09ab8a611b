'use strict'
// The platform readings (core/readings.ts, apps/usage*.ts, load/wrk-cpu.ts): which source each
// platform and each switch takes, ps as Linux's procps and macOS's BSD ps print it (recorded or
// written-from-the-manual output in tests/fixtures/ps/), wrk's CPU from the shell's `times`, and what
// a load reports when a reading is missing: null and said, never 0. No test here times a process.
const { test } = require('node:test')
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const { internal } = require('./helpers')
const { decideReadings, notMeasured } = internal('core/readings')
const { parsePsTime, parsePsUsage, parsePsThreads, parsePsParents, psUsageArgs, psDialect } = internal('apps/usage-ps')
const { treeOf, sumUsage } = internal('apps/usage-types')
const { splitTimes, wrkCpuMs, wrkSpawnArgv } = internal('load/wrk-cpu')
const { steadyFigures } = internal('load/seconds')
const { generatorFigures } = internal('load/outcome')
const { advantage } = internal('load/rounds')
const { saturationText, readingText } = internal('prose/describe')
const { loadRow } = internal('prose/tables')
const { runRows } = require('../../notebooks/00-getting-started.ts')
const { describeMachine } = internal('core/fingerprint')

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'ps')
const fixture = (name) => fs.readFileSync(path.join(FIXTURES, name), 'utf8')
const NODE = process.execPath

test('WORKBOOK_READINGS: /proc on Linux, portable elsewhere, and the two switches', (t) => {
  t.assert.strictEqual(decideReadings({}, 'linux', true).mode, 'proc')
  t.assert.strictEqual(decideReadings({}, 'darwin', false).mode, 'portable')
  t.assert.match(decideReadings({}, 'darwin', false).why, /darwin: no \/proc/)
  const portable = decideReadings({ WORKBOOK_READINGS: 'portable' }, 'linux', true)
  t.assert.deepStrictEqual([portable.mode, portable.why], ['portable', 'WORKBOOK_READINGS=portable'])
  t.assert.match(portable.source, /probe.*ps.*times/)
  t.assert.ok(
    portable.notMeasured.some((m) => /CPU quota/.test(m)),
    portable.notMeasured.join('; '),
  )
  const none = decideReadings({ WORKBOOK_READINGS: 'none' }, 'linux', true)
  t.assert.strictEqual(none.mode, 'none')
  for (const what of [/CPU time, memory and threads/, /load generator's CPU/, /CPU quota/])
    t.assert.ok(
      none.notMeasured.some((m) => what.test(m)),
      `${what} in ${none.notMeasured.join('; ')}`,
    )
  t.assert.deepStrictEqual(decideReadings({}, 'linux', true).notMeasured, [])
  t.assert.throws(
    () => decideReadings({ WORKBOOK_READINGS: 'ps' }, 'linux', true),
    (e) => e.code === 'WB_BAD_OPTION' && /auto, proc, portable, none/.test(e.message),
  )
  t.assert.throws(() => decideReadings({ WORKBOOK_READINGS: 'proc' }, 'darwin', false), /needs \/proc.*unset it/)
  t.assert.strictEqual(notMeasured('WORKBOOK_READINGS=none'), 'not measured on this platform (WORKBOOK_READINGS=none)')
})

test("ps's TIME in both dialects: whole seconds (procps) and hundredths (macOS)", (t) => {
  t.assert.strictEqual(parsePsTime('00:00:03'), 3000)
  t.assert.strictEqual(parsePsTime('01:02:03'), 3723000)
  t.assert.strictEqual(parsePsTime('1-02:03:04'), 93784000)
  t.assert.strictEqual(parsePsTime('0:05.27'), 5270)
  t.assert.strictEqual(parsePsTime('12:01.93'), 721930)
  t.assert.strictEqual(parsePsTime('1:02:03.45'), 3723450)
  t.assert.strictEqual(parsePsTime('2-1:02:03.45'), 176523450)
  for (const bad of ['', '-', '5', 'TIME', '1:2:3:4']) t.assert.strictEqual(parsePsTime(bad), null, bad)
  t.assert.strictEqual(psDialect('linux'), 'procps')
  t.assert.strictEqual(psDialect('darwin'), 'bsd')
  t.assert.deepStrictEqual(psUsageArgs('procps', [1, 2]), ['-o', 'pid=,ppid=,rss=,nlwp=,time=', '-p', '1,2'])
  t.assert.deepStrictEqual(psUsageArgs('bsd', [1]), ['-o', 'pid=,ppid=,rss=,time=', '-p', '1'])
})

test('ps as Linux procps prints it (recorded): CPU, RSS and threads by pid', (t) => {
  const u = parsePsUsage(fixture('procps-usage.txt'), 'procps')
  t.assert.deepStrictEqual([...u.keys()], [1, 9417, 9418])
  t.assert.deepStrictEqual(u.get(1), { cpuMs: 3000, rssMB: 12232 / 1024, threads: 11 })
  t.assert.deepStrictEqual(u.get(9418), { cpuMs: 0, rssMB: 4288 / 1024, threads: 1 })
  const parents = parsePsParents(fixture('procps-parents.txt'))
  t.assert.strictEqual(parents.get(3), 2)
  t.assert.deepStrictEqual(treeOf(2, parents), [2, 3, 4, 5, 6, 7, 8])
})

test('ps as macOS prints it: TIME in hundredths, no thread column, threads counted from ps -M', (t) => {
  const u = parsePsUsage(fixture('bsd-usage.txt'), 'bsd')
  t.assert.deepStrictEqual(u.get(412), { cpuMs: 5270, rssMB: 48236 / 1024, threads: null })
  t.assert.strictEqual(u.get(9120).cpuMs, 721930)
  t.assert.strictEqual(u.get(9133).cpuMs, 3723450)
  // A procps line is not a BSD one (five columns), and the reverse: nothing is misread.
  t.assert.strictEqual(parsePsUsage(fixture('procps-usage.txt'), 'bsd').size, 0)
  t.assert.strictEqual(parsePsUsage(fixture('bsd-usage.txt'), 'procps').size, 0)
  t.assert.deepStrictEqual(Object.fromEntries(parsePsThreads(fixture('bsd-threads.txt'))), { 412: 3, 9120: 7 })
  t.assert.strictEqual(parsePsThreads('').size, 0)
})

test('readings add up over a tree; a memory or thread count one process lacks makes the sum null, not smaller', (t) => {
  const a = { cpuMs: 10, rssMB: 40, threads: 7 }
  t.assert.deepStrictEqual(sumUsage([a, { cpuMs: 5, rssMB: 30, threads: 3 }]), { cpuMs: 15, rssMB: 70, threads: 10 })
  t.assert.deepStrictEqual(sumUsage([a, { cpuMs: 5, rssMB: 30, threads: null }]), {
    cpuMs: 15,
    rssMB: 70,
    threads: null,
  })
  t.assert.deepStrictEqual(sumUsage([a, null]), a) // a process gone since the tree was read
  t.assert.strictEqual(sumUsage([null]), null)
  t.assert.strictEqual(sumUsage([]), null)
})

test("wrk's CPU without /proc: from the shell's `times` (dash and bash), or null; never 0", (t) => {
  const wrkOut = 'Running 1s test @ http://127.0.0.1:3000/\nWORKBOOK-WRK {"requests":1}\n'
  const dash = splitTimes(wrkOut + fixture('times-dash.txt'))
  t.assert.deepStrictEqual(dash, { cpuMs: 3040, stdout: wrkOut })
  t.assert.strictEqual(splitTimes(wrkOut + fixture('times-bash.txt')).cpuMs, 3691)
  t.assert.deepStrictEqual(splitTimes(wrkOut), { cpuMs: null, stdout: wrkOut }) // no `times`: unknown
  t.assert.strictEqual(wrkCpuMs(null, 3040, 'portable'), 3040)
  t.assert.strictEqual(wrkCpuMs(237, null, 'portable'), null, 'portable readings never take /proc')
  t.assert.strictEqual(wrkCpuMs(237, 3040, 'none'), null)
  t.assert.strictEqual(wrkCpuMs(null, null, 'proc'), null)
  const argv = ['wrk', '-t1', '-c10', '-d1s', 'http://127.0.0.1:3000/']
  t.assert.deepStrictEqual(wrkSpawnArgv(argv, 'proc'), argv)
  const sh = wrkSpawnArgv(argv, 'portable')
  t.assert.deepStrictEqual([sh[0], sh[1], sh[3], ...sh.slice(4)], ['sh', '-c', 'sh', ...argv])
  // The wrapper itself: the command's output, then `times`, and the command's exit code kept.
  const r = spawnSync(sh[0], [...sh.slice(1, 4), NODE, '-e', 'console.log("out"); process.exitCode = 3'], {
    encoding: 'utf8',
  })
  t.assert.strictEqual(r.status, 3)
  const split = splitTimes(r.stdout)
  t.assert.strictEqual(split.stdout, 'out\n')
  t.assert.ok(split.cpuMs !== null && split.cpuMs >= 0, r.stdout)
})

const latency = { count: 1, p50: 1, p75: 1, p90: 1, p99: 1, mean: 1, stdev: 0, max: 1 }
const second = (requests, serverCpuMs, generatorCpuMs) => ({ requests, wallMs: 1000, serverCpuMs, generatorCpuMs })

test("a generator whose CPU was not read: saturation unknown (null) everywhere, and said; never 'kept up'", (t) => {
  const run = steadyFigures('run 1', [second(1000, null, null), second(1000, null, null)], latency)
  t.assert.deepStrictEqual([run.generatorCpuPercent, run.saturated, run.cpuPerRequestUs], [null, null, null])
  // One second missing is enough: a sum over the others would read low.
  const partial = steadyFigures('run 2', [second(1000, 5, 900), second(1000, 5, null)], latency)
  t.assert.deepStrictEqual([partial.generatorCpuPercent, partial.saturated], [null, null])
  const g = generatorFigures('wrk', null, [run])
  t.assert.deepStrictEqual([g.cpuPercent, g.saturated, g.saturatedRuns], [null, null, null])
  const text = saturationText({ generator: g, runs: [run] })
  t.assert.match(text, /not measured on this platform \(.+\): whether it kept up is unknown/)
  t.assert.doesNotMatch(text, / 0 %|kept up:/)
  const load = {
    label: 'a',
    runs: [run],
    generator: g,
    reqPerSec: { median: 1000, min: 1000, max: 1000, runs: [1000] },
    cpuPerRequestUs: null,
    bytesPerSec: 1,
    latencyMs: latency,
    throttled: null,
  }
  t.assert.strictEqual(runRows(load)[0]['generator saturated'], 'not measured')
  t.assert.strictEqual(runRows(load)[0]['wrk CPU %'], null)
  t.assert.strictEqual(loadRow('a', load)['generator saturated'], 'not measured (wrk)')
  const adv = advantage([load], [load])
  t.assert.strictEqual(adv.reading, 'unchecked')
  t.assert.match(readingText(adv.reading), /not measured on this platform/)
  // Measured runs keep their figures.
  const kept = generatorFigures('wrk', null, [steadyFigures('run 1', [second(1000, 5, 400)], latency)])
  t.assert.deepStrictEqual([kept.cpuPercent.median, kept.saturated, kept.saturatedRuns], [40, false, 0])
})

const fp = (readings, notMeasured) => ({
  workbook: '0.1.0',
  node: 'v26.10.0',
  v8: '14',
  platform: 'Darwin 25',
  arch: 'arm64',
  cpuModel: 'Apple M3',
  cores: 8,
  memoryGiB: 16,
  profile: 'quick',
  pinning: 'off: core pinning needs Linux (taskset); this is darwin',
  cpuQuota: null,
  cpuQuotaSource: null,
  pinnedCores: 8,
  memoryLimitMB: null,
  generator: 'wrk 4.2.0',
  ci: false,
  takenAt: '',
  readings,
  notMeasured,
})

test('describeMachine says where the readings come from and, once, what this platform could not measure', (t) => {
  const mac = decideReadings({}, 'darwin', false)
  const text = describeMachine(fp({ mode: mac.mode, why: mac.why, source: mac.source }, mac.notMeasured))
  t.assert.match(text, /\nReadings: a Node app's own counters through its probe/)
  t.assert.strictEqual(text.match(/Not measured on this platform: /g).length, 1)
  t.assert.match(text, /the CPU quota \(cgroups are Linux's: darwin: no \/proc\)/)
  t.assert.match(text, /pinning off: core pinning needs Linux/)
  const linux = decideReadings({}, 'linux', true)
  t.assert.doesNotMatch(describeMachine(fp({ mode: 'proc', why: linux.why, source: linux.source }, [])), /Not measured/)
  // A fingerprint saved before the readings were recorded still describes.
  const old = fp(undefined, undefined)
  t.assert.doesNotMatch(describeMachine(old), /Readings|Not measured/)
})

test('the portable and none switches turn pinning off and say so; the quota is then not read', (t) => {
  const script = `const r = require(${JSON.stringify(path.join(__dirname, '..', '..', 'harness', 'dist', 'core', 'pinning'))}).pinning();
    const q = require(${JSON.stringify(path.join(__dirname, '..', '..', 'harness', 'dist', 'core', 'quota'))}).limits();
    console.log(JSON.stringify({ enabled: r.enabled, reason: r.reason, quota: q.cpu, memory: q.memoryMB }))`
  for (const mode of ['portable', 'none']) {
    const env = { ...process.env, WORKBOOK_READINGS: mode }
    delete env.WORKBOOK_PIN
    const r = spawnSync(NODE, ['-e', script], { encoding: 'utf8', env })
    const out = JSON.parse(r.stdout)
    t.assert.strictEqual(out.enabled, false, r.stdout + r.stderr)
    t.assert.match(out.reason, new RegExp(`^off: WORKBOOK_READINGS=${mode}`))
    t.assert.deepStrictEqual([out.quota, out.memory], [null, null])
  }
})
