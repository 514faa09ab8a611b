'use strict'
// `make bench-harness`: the harness measuring its own method, in one run. Two framework apps, each
// started twice (on its own core, and free to run anywhere), loaded in rounds; every round runs the
// four in an order that changes each round. It prints, for each app and each way, the median and
// the coefficient of variation (CV) of req/s and of the server's CPU time per request, how many
// runs saturated the load generator, and the same for the per-round ratio of the two apps: what
// pinning and the CPU-per-request figure buy on this machine.
// Durations follow WORKBOOK_PROFILE; `--chart FILE` also draws the figures to FILE (a PNG).
//   node_modules/node/bin/node scripts/bench-harness.js [--rounds N] [--chart docs/method.png]
const fs = require('node:fs')
const { parseArgs } = require('node:util')
const wb = require('@workbook/harness')

const { values } = parseArgs({ options: { rounds: { type: 'string' }, chart: { type: 'string' } } })
const s = wb.settings()
const ROUNDS = Number(values.rounds ?? (s.name === 'quick' ? 6 : 10))
const APPS = ['frameworks/node-http', 'frameworks/express']
const WAYS = [
  { key: 'pinned', pin: true },
  { key: 'unpinned', pin: false },
]
const title = (name) => wb.frameworkByName(name.replace('frameworks/', '')).title

async function main() {
  console.log(wb.describeMachine())
  if (!wb.pinning().enabled) console.log(`note: pinning is off here (${wb.pinning().reason}): both ways run unpinned`)
  const targets = WAYS.flatMap((w) =>
    APPS.map((app) => ({
      key: `${app} ${w.key}`,
      app,
      start: { pin: w.pin },
      checks: [],
      load: {
        path: '/json',
        connections: 100,
        duration: s.durationSeconds,
        warmup: s.warmupSeconds,
        live: false,
        pin: w.pin,
      },
    })),
  )
  console.log(
    `${ROUNDS} rounds of ${targets.length} runs of ${s.durationSeconds} s, /json at 100 connections (${s.name} profile)`,
  )
  const runs = await wb.interleavedLoads(targets, { rounds: ROUNDS })
  for (const r of runs.values()) if (r.error) throw new Error(`${r.key}: ${r.error}`)
  const rows = []
  for (const w of WAYS) {
    for (const app of APPS) {
      const l = runs.get(`${app} ${w.key}`).load
      rows.push({
        way: w.key,
        app: title(app),
        'req/s': Math.round(l.reqPerSec.median),
        'req/s CV %': +(l.reqPerSec.cv * 100).toFixed(1),
        'CPU µs/req': +l.cpuPerRequestUs.median.toFixed(2),
        'CPU/req CV %': +(l.cpuPerRequestUs.cv * 100).toFixed(1),
        'generator saturated': `${l.generator.saturatedRuns} of ${l.repeats}`,
      })
    }
    const [a, b] = APPS.map((app) => runs.get(`${app} ${w.key}`).rounds)
    const byRps = wb.roundRatios(a, b, 'reqPerSec')
    const byCpu = wb.roundRatios(a, b, 'cpuPerRequest')
    rows.push({
      way: w.key,
      app: `ratio ${title(APPS[0])} / ${title(APPS[1])}`,
      'req/s': +byRps.median.toFixed(2),
      'req/s CV %': +(byRps.cv * 100).toFixed(1),
      'CPU µs/req': +byCpu.median.toFixed(2),
      'CPU/req CV %': +(byCpu.cv * 100).toFixed(1),
      'generator saturated': '',
    })
  }
  console.log(wb.textTable(rows))
  console.log(
    'CV: standard deviation over mean across the rounds. A ratio row: the per-round ratio of the two apps, by req/s and by CPU per request.',
  )
  const file = wb.saveResults('bench-harness', {
    rounds: ROUNDS,
    rows,
    loads: Object.fromEntries([...runs].map(([k, r]) => [k, r.load])),
  })
  console.log(`saved to ${file}`)
  if (values.chart) {
    const chart = wb.groupedBars(
      rows.flatMap((r) => [
        { label: `${r.app}, ${r.way}`, series: '% (req/s)', value: r['req/s CV %'] },
        { label: `${r.app}, ${r.way}`, series: '% (CPU per request)', value: r['CPU/req CV %'] },
      ]),
      {
        title: 'How much repeated measurements disagree, pinned and unpinned',
        subtitle: `coefficient of variation over ${ROUNDS} rounds (lower is steadier); ${wb.describeMachine().split(' · ').slice(2, 4).join(', ')}`,
        unit: 'CV across rounds (%)',
        digits: 1,
      },
    )
    wb.show(chart, {
      update(bundle) {
        fs.writeFileSync(values.chart, bundle['image/png'])
      },
    })
    console.log(`drew ${values.chart}`)
  }
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
