'use strict'
// Integration (make test-integration): a real CPU quota. A control group of one CPU is made for the
// test (root, cgroup v1 or v2), a short load runs inside it and outside it, and only the run inside
// says so: the note at the top and the throttled periods beside the load.
const { test } = require('node:test')
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const ROOT = path.join(__dirname, '..', '..')
const HARNESS = require.resolve('@workbook/harness')

/** A fresh cgroup with a one-CPU quota, or the reason there cannot be one here. */
function oneCpuGroup() {
  const name = `workbook-quota-test-${process.pid}`
  const v2 = fs.existsSync('/sys/fs/cgroup/cgroup.controllers')
  const dir = v2 ? path.join('/sys/fs/cgroup', name) : path.join('/sys/fs/cgroup/cpu', name)
  try {
    fs.mkdirSync(dir)
    if (v2) fs.writeFileSync(path.join(dir, 'cpu.max'), '100000 100000')
    else {
      fs.writeFileSync(path.join(dir, 'cpu.cfs_period_us'), '100000')
      fs.writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), '100000')
    }
    return { dir }
  } catch (e) {
    try {
      fs.rmdirSync(dir)
    } catch {}
    return {
      why: `cannot make a cgroup with a CPU quota here (${e.code ?? e.message}): needs root and a writable cgroup file system`,
    }
  }
}

// Start an app, load it for 2 s, print the machine's description and the load's sentence.
const SCRIPT = `
const h = require(${JSON.stringify(HARNESS)})
h.withApp('hello-http', (app) => h.runLoad({ target: app, connections: 10, warmup: 0, duration: 1, repeats: 2, live: false }))
  .then((r) => console.log(JSON.stringify({ machine: h.describeMachine(), load: h.saturationText(r), throttled: r.throttled })))
`

function run(group) {
  // The shell moves itself into the group, then runs node there (its children inherit the group).
  const enter = group ? `echo $$ > ${group}/cgroup.procs && ` : ''
  const out = spawnSync('sh', ['-c', `${enter}exec "${process.execPath}" -e "$SCRIPT"`], {
    cwd: ROOT,
    env: { ...process.env, SCRIPT, WORKBOOK_PROFILE: 'quick' },
    encoding: 'utf8',
    timeout: 60_000,
  })
  const line = out.stdout.split('\n').find((l) => l.startsWith('{'))
  if (!line) throw new Error(`no result (exit ${out.status}):\n${out.stdout}\n${out.stderr}`)
  return JSON.parse(line)
}

test('under a one-CPU quota a run says so and reports the throttled periods; the same run without it says neither', (t) => {
  if (require('node:os').availableParallelism() < 2) return t.skip('one CPU: a quota of one is no less than the cores')
  const group = oneCpuGroup()
  if (group.why) return t.skip(group.why)
  t.after(() => fs.rmdirSync(group.dir))
  const inside = run(group.dir)
  t.assert.match(
    inside.machine,
    /\nNote: a CPU quota of 1 CPU \(cgroup v[12] .*\) caps this session, below the 2 cores/,
  )
  t.assert.ok(inside.throttled && inside.throttled.periods > 0, JSON.stringify(inside.throttled))
  t.assert.match(inside.load, /The CPU quota (held this session back in \d+|held nothing back: 0) of \d+ periods/)
  const outside = run(null)
  t.assert.doesNotMatch(outside.machine, /quota/, outside.machine)
  t.assert.strictEqual(outside.throttled, null)
  t.assert.doesNotMatch(outside.load, /quota/)
  t.diagnostic(`inside: ${inside.load}`)
})
