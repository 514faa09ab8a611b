'use strict'
// `make as-published`: every study's commands at their own length, connections and threads, on this
// machine, one after the other (internal.asPublishedPlan: "Keeping Node.js Fast"'s three autocannon runs,
// the 2022 table's 5-minute wrk runs, Osgood's minute, the Swift study's 10-minute and 1-minute loads,
// Elysia's five 10-s runs, compiled with bun build --compile as the post did). oha is not installed here:
// wrk runs its loads, and the notebooks' tables say so. The record (notebooks/as-published.json, committed)
// keeps each run with the date, the machine and how long it all took; notebooks 01, 03 and 05 show it
// beside their quick runs. 53 minutes of load in all (--dry-run prints the plan and its length).
//   node_modules/node/bin/node scripts/as-published.js [--only PREFIX] [--out FILE] [--dry-run]
//     --only etag|frameworks2022|osgood|swiftNode|elysiaEncore (or a whole key): those runs alone,
//       written to build/as-published/record.json unless --out says where
//     --dry-run: the plan and how long it will take, nothing run
//     --seconds N: every run N s, not the study's (to try the script; written to build/ unless --out)
//     --merge: add these runs to the record at --out (default notebooks/as-published.json) rather than
//       start a new one: each run keeps its own date, the times add up, and the record says how many of
//       the plan's runs it holds (a record made one study at a time, on the same machine)
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { parseArgs } = require('node:util')
const wb = require('@workbook/harness')
const internal = require('@workbook/harness/internal')

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    out: { type: 'string' },
    seconds: { type: 'string' },
    'dry-run': { type: 'boolean' },
    merge: { type: 'boolean' },
  },
})
const capped = (r) => (values.seconds ? { ...r, seconds: Number(values.seconds) } : r)
const plan = internal
  .asPublishedPlan()
  .map(capped)
  .filter((r) => !values.only || r.key === values.only || r.key.startsWith(`${values.only}/`))
if (plan.length === 0) {
  console.error(
    `as-published: --only ${values.only} names no run; the studies: etag, frameworks2022, osgood, swiftNode, elysiaEncore`,
  )
  process.exit(2)
}
const out =
  values.out ??
  ((values.only || values.seconds) && !values.merge
    ? path.join(wb.repoRoot, 'build', 'as-published', 'record.json')
    : internal.AS_PUBLISHED_FILE)
const BUILD = path.join(wb.repoRoot, 'build', 'as-published')

const minutes = (s) => `${Math.round(s / 60)} min`
const loadSeconds = plan.reduce((a, r) => a + r.seconds * r.repeats, 0)

/** `bun build --compile` of an app of apps/, into build/as-published/ (the post compiled its app for production). */
function compiled(bun, app) {
  fs.mkdirSync(BUILD, { recursive: true })
  const source = path.join(wb.repoRoot, 'apps', app.endsWith('.js') ? app : `${app}.js`)
  const binary = path.join(BUILD, path.basename(source, '.js'))
  const r = spawnSync(bun.binary, ['build', '--compile', source, '--outfile', binary], { cwd: BUILD, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`bun build --compile ${source} failed: ${(r.stdout + r.stderr).slice(-800)}`)
  return binary
}

/** The app and its start options for a run: on Bun, compiled first where the study compiled it (`binary`, to remove). */
function appOf(run) {
  if (run.runtime !== 'bun') return { app: run.app, start: { env: run.env }, binary: null }
  const bun = internal.runtimeByName('bun')
  if (!bun.present) throw new Error(`Bun is not here (${bun.missing}): make runtimes`)
  const name = path.basename(run.app, '.js')
  const probe = run.method === 'POST' ? null : run.path
  const source = { name, entry: path.join(wb.repoRoot, 'apps', run.app), probe }
  if (!run.compile) return { app: source, start: { runtime: bun.binary, env: run.env }, binary: null }
  const binary = compiled(bun, run.app)
  return {
    app: { name: `${name} (compiled)`, entry: binary, probe },
    start: { standalone: true, env: run.env },
    binary,
  }
}

async function measure(run) {
  const { app, start, binary } = appOf(run)
  try {
    return await wb.withApp(
      app,
      (a) =>
        wb.runLoad({
          target: a,
          path: run.path,
          method: run.method,
          headers: run.headers,
          body: run.body,
          connections: run.connections,
          threads: run.threads,
          duration: run.seconds,
          warmup: 0,
          repeats: run.repeats,
          generator: run.generator,
          allowStatuses: run.allowStatuses,
          label: run.key,
          live: false,
          report: false,
        }),
      start,
    )
  } finally {
    if (binary) fs.rmSync(binary, { force: true }) // about 110 MB
  }
}

async function main() {
  console.log(wb.describeMachine())
  console.log(
    `${plan.length} runs, ${minutes(loadSeconds)} of load (with each app's start, about ${minutes(loadSeconds * 1.05 + plan.length * 5)}); record: ${path.relative(wb.repoRoot, out)}`,
  )
  for (const r of plan)
    console.log(
      `  ${r.key}: ${r.published.command} -> ${r.generator}, ${r.connections} conn, ${r.seconds} s x ${r.repeats}`,
    )
  if (values['dry-run']) return
  const t0 = Date.now()
  const fp = internal.fingerprint()
  const fresh = {
    ranAt: new Date().toISOString(),
    machine: internal.thisMachine(),
    node: process.versions.node,
    generator: fp.generator.split(':')[0],
    pinning: fp.pinning,
    tookSeconds: 0,
    planned: internal.asPublishedPlan().length,
    runs: {},
    skipped: {},
  }
  const record = values.merge ? mergeInto(fresh) : fresh
  const before = record.tookSeconds
  const write = () => {
    record.tookSeconds = before + Math.round((Date.now() - t0) / 1000)
    fs.mkdirSync(path.dirname(out), { recursive: true })
    fs.writeFileSync(out, `${JSON.stringify(record, null, 1)}\n`)
  }
  for (const [i, run] of plan.entries()) {
    const started = Date.now()
    process.stdout.write(`[${i + 1}/${plan.length}] ${run.key}: ${run.seconds * run.repeats} s ... `)
    try {
      const load = await measure(run)
      record.runs[run.key] = {
        ...internal.asPublishedEntry(run.study, run.published, load),
        ranAt: new Date().toISOString(),
      }
      delete record.skipped[run.key]
      const e = record.runs[run.key]
      console.log(
        `${wb.fmt(e.reqPerSec)} req/s, mean ${wb.fmt(e.latencyMs.mean)} ms (${Math.round((Date.now() - started) / 1000)} s)`,
      )
    } catch (err) {
      record.skipped[run.key] = String(err.message ?? err).split('\n')[0]
      delete record.runs[run.key]
      console.log(`not run: ${record.skipped[run.key]}`)
    }
    write() // after every run: a run stopped half-way keeps what it measured
  }
  console.log(
    `done in ${minutes(record.tookSeconds)}: ${Object.keys(record.runs).length} runs recorded, ${Object.keys(record.skipped).length} not run`,
  )
}

/** The record at `out`, to which this run's runs are added: refused where it was made elsewhere or otherwise. */
function mergeInto(fresh) {
  const old = internal.readAsPublished(out)
  if (!old) throw new Error(`--merge: no record to add to at ${path.relative(wb.repoRoot, out)}; run without --merge`)
  for (const k of ['machine', 'node', 'generator', 'pinning'])
    if (old[k] !== fresh[k])
      throw new Error(
        `--merge: the record's ${k} is "${old[k]}", this run's "${fresh[k]}": one record holds one setting; run the whole plan without --merge`,
      )
  return { ...old, planned: fresh.planned, skipped: { ...old.skipped } }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
