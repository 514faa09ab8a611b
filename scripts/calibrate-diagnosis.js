'use strict'
// `make calibrate-diagnosis`: the diagnosis's calibration. Diagnoses every server of
// tests/fixtures/diagnose/cases.json (ordinary servers with one known problem each, at different
// intensities) --runs times, quiet or --busy (a busy loop on every CPU, at the workbook's priority),
// and appends each diagnosis's evidence to build/calibration/evidence.jsonl. Then (or with --report
// alone) it fits the lines from every diagnosis recorded (tools/src/diagnose/calibrate.ts) and
// prints them with the readings each sits between, the confusion matrix (case x verdict) with the
// lines fitted and with the lines shipped (thresholds.ts), and the leave-one-out check: each case
// judged by lines fitted without it. --save-evidence DIR writes, for each case, the recorded
// evidence that sits closest to the lines, for the unit tests.
// --cases-file FILE scores the diagnosis on another set of servers (a held-out set: the servers
// beside FILE, the same fields as cases.json), appending to build/calibration/<its folder>.jsonl, and
// reports each server's verdicts against its answer; nothing is fitted on it.
//   node_modules/node/bin/node scripts/calibrate-diagnosis.js [--runs 10] [--busy] [--cases text] [--cases-file FILE] [--report] [--save-evidence DIR]
const fs = require('node:fs')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { parseArgs } = require('node:util')
const wb = require('@workbook/harness')
const tools = require('@workbook/tools')

const root = path.join(__dirname, '..')
const tool = (m) => require(path.join(root, 'tools', 'dist', m))

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    busy: { type: 'boolean' },
    cases: { type: 'string' },
    'cases-file': { type: 'string' },
    report: { type: 'boolean' },
    out: { type: 'string', default: path.join(root, 'build', 'calibration') },
    'save-evidence': { type: 'string' },
  },
})
const casesFile = path.resolve(values['cases-file'] ?? path.join(root, 'tests', 'fixtures', 'diagnose', 'cases.json'))
const fixtures = path.dirname(casesFile)
const heldOut = values['cases-file'] !== undefined
const { cases } = JSON.parse(fs.readFileSync(casesFile, 'utf8'))
const log = path.join(values.out, heldOut ? `${path.basename(fixtures)}.jsonl` : 'evidence.jsonl')
const SATURATING = ['blocked', 'sync-io', 'gc-pressure']
const VERDICTS = ['blocked', 'sync-io', 'gc-pressure', 'off-main-thread', 'waiting', 'memory-climbing', 'healthy']

/** The loop state a case's diagnoses must read (calibrate.ts, Calibrated.saturated): null where either will do. */
function saturated(c) {
  if (SATURATING.includes(c.verdict)) return true
  return c.verdict === 'waiting' ? false : null
}

/** The evidence without what is only drawn (the flame graphs' rectangles). */
function slim(e) {
  const { rects: _r, ...flame } = e.flame
  const { rects: _a, ...allocations } = e.allocations
  return { ...e, flame, allocations }
}

async function measure() {
  fs.mkdirSync(values.out, { recursive: true })
  const busy = values.busy
    ? Array.from({ length: require('node:os').availableParallelism() }, (_, cpu) =>
        spawn('taskset', ['-c', String(cpu), process.execPath, '-e', 'for(;;){}'], { stdio: 'ignore' }),
      )
    : []
  const stop = () => {
    for (const p of busy) p.kill('SIGKILL')
  }
  process.on('exit', stop)
  try {
    const chosen = cases.filter((c) => !values.cases || c.name.includes(values.cases))
    for (let run = 1; run <= Number(values.runs); run++) {
      for (const c of chosen) {
        const t0 = Date.now()
        const line = { case: c.name, expected: c.verdict, cause: c.cause ?? null, saturated: saturated(c) }
        line.condition = values.busy ? 'busy' : 'quiet'
        line.profile = wb.settings().name
        try {
          const d = await tools.diagnose(path.join(fixtures, c.file), {
            ...c.diagnose,
            route: c.route ?? c.diagnose?.route ?? '/',
            // the case's method and body (a held-out set's PATCH is a PATCH), with its load's own options
            ...((c.method && c.method !== 'GET') || c.body !== undefined
              ? {
                  load: {
                    ...c.diagnose?.load,
                    ...tool('diagnose/routes').loadOf({ route: c.route, method: c.method, body: c.body }),
                  },
                }
              : {}),
            start: { env: c.env },
            live: false,
            report: false,
          })
          fs.rmSync(d.dir, { recursive: true, force: true })
          line.got = d.verdict.id
          line.gotCause = d.verdict.cause
          line.text = d.text
          line.evidence = slim(d.evidence)
          console.log(
            `${c.name} (${line.condition} ${run}): ${d.verdict.title}${d.verdict.id === c.verdict || d.verdict.id === c.or ? '' : `  <-- expected ${c.verdict}`}` +
              ` [elu ${d.evidence.elu.toFixed(2)}, ${ratioText(d.evidence)}${Object.entries(d.evidence.busy.shares)
                .filter(([, v]) => v >= 0.05)
                .map(([k, v]) => `${k} ${(v * 100).toFixed(0)}%`)
                .join(' ')}] ${((Date.now() - t0) / 1000).toFixed(1)} s`,
          )
        } catch (err) {
          // a diagnosis that fails is a wrong answer too: recorded (without evidence), and counted so by the score
          line.got = 'error'
          line.error = `${err.code ?? err.name}: ${err.message.split('\n')[0]}`
          console.log(`${c.name} (${line.condition} ${run}): FAILED ${line.error}`)
        }
        fs.appendFileSync(log, `${JSON.stringify(line)}\n`)
      }
    }
  } finally {
    stop()
  }
}

/** "0.52 ms 8.5x express, " : the CPU per request against the reference, for the log. */
function ratioText(e) {
  const y = e.yardstick
  if (!y || y.ratio === null) return ''
  return `${e.cpuPerRequestMs.toPrecision(3)} ms ${y.ratio.toPrecision(3)}x ${y.against === 'framework' ? y.framework.name : 'node-http'}, `
}

/** The diagnoses recorded, each with its case's second right verdict (cases.json, `or`). */
function read() {
  if (!fs.existsSync(log)) throw new Error(`nothing recorded in ${path.relative(root, log)}: measure first (--runs N)`)
  const or = new Map(cases.map((c) => [c.name, c.or ?? null]))
  return fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .map((r) => ({ ...r, or: or.get(r.case) ?? null }))
    .filter((r) => heldOut || r.evidence) // a failed diagnosis has no evidence to fit lines on
}

/** Diagnoses recorded per condition and profile (the quick profile watches 4 s, the full one 8 s). */
function conditions(set) {
  const n = new Map()
  for (const r of set) {
    const key = `${r.condition}, ${r.profile ?? (r.evidence.seconds < 6 ? 'quick' : 'full')} profile`
    n.set(key, (n.get(key) ?? 0) + 1)
  }
  return [...n].map(([k, v]) => `${v} ${k}`).join('; ')
}

const fmt = (v) => (Number.isFinite(v) ? +v.toPrecision(3) : v)

/**
 * A held-out set's score: each server's verdicts as the diagnosis gave them live (nothing re-decided,
 * so a score recorded by an older diagnosis stays its own), right or wrong against the answer its
 * author wrote (`verdict`, or `or`).
 */
function score() {
  const set = read()
  const byCase = new Map(cases.map((c) => [c.name, { c, got: [] }]))
  for (const r of set) byCase.get(r.case)?.got.push(r)
  console.log(
    `\n${set.length} diagnoses of ${set.length ? new Set(set.map((r) => r.case)).size : 0} servers of ${path.relative(root, casesFile)} (${conditions(set)})\n`,
  )
  console.log('| server | expected | verdicts | right |')
  console.log('|---|---|---|---:|')
  let right = 0
  let servers = 0
  for (const { c, got } of byCase.values()) {
    if (!got.length) continue
    const counts = new Map()
    for (const r of got) {
      const key =
        r.got === 'error' ? `failed (${r.error.split(':')[0]})` : `${r.got}${r.gotCause ? ` (${r.gotCause})` : ''}`
      counts.set(key, (counts.get(key) ?? 0) + 1)
    }
    const ok = got.filter((r) => r.got === c.verdict || r.got === c.or).length
    servers++
    if (ok * 2 > got.length) right++
    const verdicts = [...counts].map(([k, n]) => `${k} ${n}`).join(', ')
    console.log(
      `| ${c.name} (\`${c.file}\`) | ${c.verdict}${c.or ? ` or ${c.or}` : ''} | ${verdicts} | ${ok} of ${got.length} |`,
    )
  }
  console.log(`\n${right} of ${servers} servers right in most of their diagnoses`)
}

function report() {
  const { fitThresholds, lineGroups, FITTED, confusion, leaveOneOut, largestBlocking, growthOf, ratioOf } =
    tool('diagnose/calibrate')
  const { offMainShare } = tool('diagnose/threads')
  const { THRESHOLDS } = tool('diagnose/thresholds')
  const set = read()
  const fitted = fitThresholds(set)
  console.log(`\n${set.length} diagnoses of ${new Set(set.map((r) => r.case)).size} cases (${conditions(set)})`)
  console.log('\nThe lines fitted (shipped in thresholds.ts):')
  for (const k of FITTED) console.log(`  ${k}: ${fmt(fitted[k])} (shipped ${THRESHOLDS[k]})`)
  // The readings each line sits between: the highest that must read under it, the lowest that must
  // reach it, and how many of each side fall on the wrong side of the line fitted.
  const groups = lineGroups(set)
  // the reading at one end of a side, or null when the cases chosen (--cases) gave that side none
  const end = (rows, pick) => {
    const read = rows.filter((r) => Number.isFinite(r.value))
    return read.length ? read.reduce((a, b) => (pick(a.value, b.value) ? a : b)) : null
  }
  const wrong = (k) =>
    groups[k].below.filter((r) => r.value >= fitted[k]).length +
    groups[k].above.filter((r) => r.value < fitted[k]).length
  console.log('\nEach line, between the readings it was set from:\n')
  console.log(
    '| line | fitted | the highest reading that must stay under it | the lowest that must reach it | on the wrong side |',
  )
  console.log('|---|---:|---|---|---:|')
  for (const k of FITTED) {
    const g = groups[k]
    const lo = end(g.below, (a, b) => a >= b)
    const hi = end(g.above, (a, b) => a <= b)
    const show = (r) => (r ? `${fmt(r.value)} (${r.case})` : 'none')
    const under = g.floor > (lo?.value ?? 0) ? `${show(lo)}; the floor ${g.floor}` : show(lo)
    console.log(
      `| \`${k}\` | ${fmt(fitted[k])} | ${under} | ${show(hi)} | ${wrong(k)} of ${g.below.length + g.above.length} |`,
    )
  }
  const readingsOf = (f) => {
    const by = new Map()
    for (const r of set) {
      const v = f(r.evidence)
      const cur = by.get(r.case) ?? []
      cur.push(v)
      by.set(r.case, cur)
    }
    return [...by].map(([name, vs]) => `${name}: ${fmt(Math.min(...vs))}-${fmt(Math.max(...vs))}`).join('; ')
  }
  console.log('\nThe readings, by case (min-max):')
  console.log(`  utilisation: ${readingsOf((e) => e.elu)}`)
  console.log(`  GC's share of busy time: ${readingsOf((e) => e.busy.shares.gc)}`)
  console.log(`  CPU per request over the reference's: ${readingsOf(ratioOf)}`)
  console.log(`  largest share (beyond the reference) but request handling's and GC's: ${readingsOf(largestBlocking)}`)
  console.log(`  latency over CPU: ${readingsOf((e) => e.latencyOverCpu ?? NaN)}`)
  console.log(`  share of CPU off the main thread: ${readingsOf((e) => offMainShare(e) ?? NaN)}`)
  console.log(`  memory growth, share a second: ${readingsOf(growthOf)}`)
  const table = (rows, title) => {
    const ids = VERDICTS
    console.log(`\n${title}\n`)
    console.log(`| case | expected | ${ids.join(' | ')} | right |`)
    console.log(`|---|---|${ids.map(() => '---:').join('|')}|---:|`)
    for (const r of rows)
      console.log(
        `| ${r.case} | ${r.expected}${r.or ? ` or ${r.or}` : ''} | ${ids.map((i) => r.verdicts[i] ?? '').join(' | ')} | ${r.right} of ${r.of} |`,
      )
  }
  table(confusion(set, THRESHOLDS), 'Confusion matrix, with the lines shipped (thresholds.ts):')
  table(confusion(set, fitted), 'With the lines fitted on every diagnosis recorded:')
  table(leaveOneOut(set), 'Leave-one-out: each case judged by lines fitted without it:')
  if (values['save-evidence']) saveEvidence(set, values['save-evidence'], THRESHOLDS)
}

/**
 * Evidence with only what the rules read: not the flame graphs' trees, and of the frames the verdict
 * looks under (the call it names: a *Sync call, crypto, zlib), the 30 with the most time under them.
 */
const forRules = ({ flame, allocations: _, ...e }) => ({
  ...e,
  flame: {
    hot: [...flame.hot].sort((a, b) => b.totalShare - a.totalShare).slice(0, 30),
    hottestUser: flame.hottestUser,
  },
})

/** For each case, the diagnosis judged right whose deciding readings sit closest to the shipped lines: the unit tests' evidence. */
function saveEvidence(set, dir, T) {
  const { largestBlocking, growthOf, isRight, ratioOf } = tool('diagnose/calibrate')
  const { offMainShare } = tool('diagnose/threads')
  const { decide } = tool('diagnose/verdict')
  fs.mkdirSync(dir, { recursive: true })
  const margin = (e) =>
    Math.min(
      Math.abs(Math.log(e.elu / T.BUSY_ELU)),
      Math.abs(Math.log((e.busy.shares.gc || 1e-3) / T.GC_SHARE)),
      Math.abs(Math.log((largestBlocking(e) || 1e-3) / T.BLOCKING_SHARE)),
      Math.abs(Math.log((ratioOf(e) || 1e-3) / T.FAR_ABOVE_REFERENCE)),
      Math.abs(Math.log((e.latencyOverCpu || 1e-3) / T.WAITING_LATENCY_OVER_CPU)),
      Math.abs(Math.log((offMainShare(e) || 1e-3) / T.OFF_MAIN_SHARE)),
      Math.abs(Math.log(Math.max(growthOf(e), 1e-4) / T.MEMORY_GROWTH)),
    )
  for (const name of new Set(set.map((r) => r.case))) {
    // closest to the lines among the diagnoses the shipped lines judge right (the matrix counts the others)
    const mine = set
      .filter((r) => r.case === name && isRight(r, decide(r.evidence, T).id))
      .sort((a, b) => margin(a.evidence) - margin(b.evidence))
    const pick = mine[0]
    if (!pick) throw new Error(`no diagnosis of "${name}" judged right by the shipped lines: nothing to save`)
    const file = path.join(dir, `${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.json`)
    fs.writeFileSync(
      file,
      `${JSON.stringify({ case: name, expected: pick.expected, or: pick.or, cause: pick.cause, evidence: forRules(pick.evidence) }, null, 1)}\n`,
    )
    console.log(`saved ${path.relative(root, file)}`)
  }
}

;(async () => {
  if (!values.report) await measure()
  if (heldOut) score()
  else report()
})().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
