'use strict'
// CPU quotas (JupyterHub, Binder, containers): read from a control group's files, the tightest on the
// way to the root; said once at the top of a notebook when below the pinned cores; each load's
// throttled periods reported beside it. The cgroup trees here are fake folders, v1 and v2.
const { test } = require('node:test')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { internal } = require('./helpers')
const { limits, throttling, throttledBetween } = internal('core/quota')
const { describeMachine, fingerprint, quotaContended } = internal('core/fingerprint')
const { saturationText, throttledText } = internal('prose/describe')
const { loadRow } = internal('prose/tables')

function tree(t, files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-cgroup-'))
  t.after(() => fs.rmSync(root, { recursive: true, force: true }))
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    fs.writeFileSync(path.join(root, file), text)
  }
  return { root: path.join(root, 'sys'), procSelfCgroup: path.join(root, 'self-cgroup') }
}

test('cgroup v2: cpu.max and memory.max, the tightest of the group and its ancestors', (t) => {
  const paths = tree(t, {
    'self-cgroup': '0::/user.slice/jupyter-ada\n',
    'sys/cgroup.controllers': 'cpu memory\n',
    'sys/user.slice/cpu.max': '200000 100000\n',
    'sys/user.slice/memory.max': '4294967296\n',
    'sys/user.slice/jupyter-ada/cpu.max': '50000 100000\n',
    'sys/user.slice/jupyter-ada/memory.max': 'max\n',
    'sys/user.slice/jupyter-ada/cpu.stat': 'usage_usec 9\nnr_periods 40\nnr_throttled 12\nthrottled_usec 350000\n',
  })
  const l = limits(paths)
  t.assert.strictEqual(l.cpu.cpus, 0.5)
  t.assert.match(l.cpu.source, /^cgroup v2 cpu\.max 50000 100000 \(\/user\.slice\/jupyter-ada\)$/)
  t.assert.strictEqual(l.memoryMB, 4096) // the parent's limit holds
  t.assert.deepStrictEqual(throttling(l.cpu), { periods: 40, throttled: 12, throttledMs: 350 })
})

test('cgroup v1: cfs quota over period under the cpu,cpuacct mount, -1 meaning none, memory without a limit', (t) => {
  const paths = tree(t, {
    'self-cgroup': '4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n0::/\n',
    'sys/cpu,cpuacct/docker/abc/cpu.cfs_quota_us': '100000\n',
    'sys/cpu,cpuacct/docker/abc/cpu.cfs_period_us': '100000\n',
    'sys/cpu,cpuacct/docker/cpu.cfs_quota_us': '-1\n',
    'sys/cpu,cpuacct/docker/cpu.cfs_period_us': '100000\n',
    'sys/cpu,cpuacct/docker/abc/cpu.stat': 'nr_periods 19\nnr_throttled 2\nthrottled_time 10647570\n',
    'sys/memory/docker/abc/memory.limit_in_bytes': '9223372036854771712\n',
  })
  const l = limits(paths)
  t.assert.strictEqual(l.cpu.cpus, 1)
  t.assert.match(l.cpu.source, /cgroup v1 cpu\.cfs_quota_us 100000 \/ cpu\.cfs_period_us 100000 \(\/docker\/abc\)/)
  t.assert.strictEqual(l.memoryMB, null)
  const a = throttling(l.cpu)
  t.assert.deepStrictEqual(a, { periods: 19, throttled: 2, throttledMs: 10.64757 })
  t.assert.deepStrictEqual(throttledBetween(a, { periods: 50, throttled: 4, throttledMs: 37.9 }), {
    periods: 31,
    throttled: 2,
    throttledMs: 37.9 - 10.64757,
  })
  t.assert.strictEqual(throttledBetween(null, a), null)
})

test('no quota anywhere, or no cgroup file to read: nothing to say', (t) => {
  const none = tree(t, { 'self-cgroup': '0::/\n', 'sys/cgroup.controllers': 'cpu\n', 'sys/cpu.max': 'max 100000\n' })
  t.assert.deepStrictEqual(limits(none), { cpu: null, memoryMB: null })
  t.assert.deepStrictEqual(limits({ root: '/nonexistent', procSelfCgroup: '/nonexistent/cgroup' }), {
    cpu: null,
    memoryMB: null,
  })
  t.assert.strictEqual(throttling(null), null)
})

test('describeMachine says once that a quota below the pinned cores makes every figure contended; not otherwise', (t) => {
  const fp = {
    ...fingerprint(),
    cpuQuota: 1,
    cpuQuotaSource: 'cgroup v1 cpu.cfs_quota_us 100000 / cpu.cfs_period_us 100000 (/x)',
    pinnedCores: 2,
    memoryLimitMB: 2048,
    notMeasured: [], // with WORKBOOK_READINGS=portable or none it names the quota: not this test's sentence
  }
  t.assert.ok(quotaContended(fp))
  const text = describeMachine(fp)
  t.assert.match(
    text,
    /\nNote: a CPU quota of 1 CPU \(cgroup v1 .*\(\/x\)\) caps this session, below the 2 cores the workbook pins to/,
  )
  t.assert.match(text, /every figure below is contended/)
  t.assert.match(text, /\nMemory is limited to 2048 MiB for this session\./)
  for (const free of [{ cpuQuota: null }, { cpuQuota: 2 }, { cpuQuota: 4 }]) {
    const other = describeMachine({ ...fp, ...free, memoryLimitMB: null })
    t.assert.doesNotMatch(other, /quota/, JSON.stringify(free))
    t.assert.doesNotMatch(other, /Memory is limited/)
  }
})

test('a load under a quota says how many periods it was throttled, in its sentence and its table row; without one, neither', (t) => {
  const base = {
    generator: {
      name: 'wrk',
      report: null,
      cpuPercent: { median: 70, min: 60, max: 80 },
      saturated: false,
      saturatedRuns: 0,
    },
    runs: [{}, {}],
  }
  const held = { ...base, throttled: { periods: 50, throttled: 20, throttledMs: 412.6 } }
  t.assert.match(
    saturationText(held),
    /kept up: .*\. The CPU quota held this session back in 20 of 50 periods \(40 %, 413 ms in all\)/,
  )
  t.assert.match(throttledText({ periods: 30, throttled: 0, throttledMs: 0 }), /held nothing back: 0 of 30 periods/)
  t.assert.doesNotMatch(saturationText({ ...base, throttled: null }), /quota/)
  t.assert.doesNotMatch(saturationText(base), /quota/)
  const load = {
    ...held,
    reqPerSec: { median: 1, min: 1, max: 1 },
    bytesPerSec: 1,
    cpuPerRequestUs: null,
    latencyMs: { p50: 1, p75: 1, p90: 1, p99: 1 },
  }
  t.assert.strictEqual(loadRow('x', load)['throttled periods'], '20 of 50')
  t.assert.ok(!('throttled periods' in loadRow('x', { ...load, throttled: null })))
})
