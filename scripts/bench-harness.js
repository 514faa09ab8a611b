'use strict'
// `make bench-harness`: the harness measuring its own method, in one run. node:http and Express,
// each on the server's core, compared by each load generator (wrk, autocannon) with each design:
//   - "rounds": a few long rounds (the full profile's 5 rounds of 5 s), warm servers, order rotating;
//   - "pairs": many 1-s rounds on warm servers, the two apps taking turns (the comparisons' design).
// Each generator x design is measured twice in a row, so the table shows how well a ratio
// reproduces, beside its median, its 95 % interval (bootstrap of the median of the per-round
// ratios), how many rounds two runs would need to agree within 3 % at that spread, the ratio by
// server CPU time per request and how many rounds saturated the generator.
//   node_modules/node/bin/node scripts/bench-harness.js [--pairs N] [--rounds N] [--chart docs/method.png]
//     [--design rounds|pairs] [--generator wrk|autocannon]
const fs = require('node:fs')
const { parseArgs } = require('node:util')
const wb = require('@workbook/harness')
const internal = require('@workbook/harness/internal')

const { values } = parseArgs({
  options: {
    pairs: { type: 'string' },
    rounds: { type: 'string' },
    chart: { type: 'string' },
    design: { type: 'string' },
    generator: { type: 'string' },
  },
})
const quick = wb.settings().name === 'quick'
const APPS = ['node-http', 'express']
const title = (name) => wb.frameworks.find((f) => f.name === name).title

// --design and --generator keep one of each (a long run of one design: --design pairs --pairs 600).
function only(list, wanted, option) {
  if (wanted === undefined) return list
  const kept = list.filter((x) => (x.name ?? x) === wanted)
  if (kept.length === 0) {
    const names = list.map((x) => x.name ?? x).join(', ')
    console.error(`bench-harness: --${option} ${wanted} is not one of ${names} here; leave it out to measure them all`)
    process.exit(2)
  }
  return kept
}
const DESIGNS = only(
  [
    { name: 'rounds', rounds: Number(values.rounds ?? (quick ? 3 : 5)), seconds: quick ? 2 : 5 },
    { name: 'pairs', rounds: Number(values.pairs ?? (quick ? 10 : 20)), seconds: 1 },
  ],
  values.design,
  'design',
)
const GENERATORS = only(
  internal.measuringGenerator().name === 'wrk' ? ['wrk', 'autocannon'] : ['autocannon'],
  values.generator,
  'generator',
)

async function measure(generator, design) {
  const t0 = Date.now()
  const runs = await wb.interleavedLoads(
    APPS.map((name) => ({
      key: name,
      app: `frameworks/${name}`,
      checks: [],
      load: { path: '/json', connections: 100, duration: design.seconds, warmup: 1, live: false, generator },
    })),
    { rounds: design.rounds, order: 'alternate' },
  )
  for (const r of runs.values()) if (r.error) throw new Error(`${r.key}: ${r.error}`)
  const [a, b] = APPS.map((n) => runs.get(n).rounds)
  return {
    ratio: internal.roundRatios(a, b, 'reqPerSec'),
    cpuRatio: internal.roundRatios(a, b, 'cpuPerRequest'),
    saturated: APPS.map((n) => runs.get(n).load.generator.saturatedRuns),
    generatorCpu: APPS.map((n) => runs.get(n).load.generator.cpuPercent.median),
    serverCpu: APPS.map((n) => runs.get(n).load.server.cpuPercent.median),
    rps: APPS.map((n) => runs.get(n).load.reqPerSec),
    seconds: (Date.now() - t0) / 1000,
  }
}

async function main() {
  console.log(wb.describeMachine())
  console.log(
    `${title(APPS[0])} / ${title(APPS[1])} on GET /json at 100 connections, by ${GENERATORS.join(' and ')}; ` +
      DESIGNS.map((d) => `${d.name}: ${d.rounds} x ${d.seconds} s per app`).join(', ') +
      '; each measured twice',
  )
  const rows = []
  const measured = []
  for (const design of DESIGNS) {
    for (const generator of GENERATORS) {
      const twice = [await measure(generator, design), await measure(generator, design)]
      measured.push({ generator, design: design.name, twice })
      const [m1, m2] = twice
      const i1 = internal.medianInterval(m1.ratio.runs)
      const i2 = internal.medianInterval(m2.ratio.runs)
      rows.push({
        generator,
        design: `${design.name} (${design.rounds} x ${design.seconds} s)`,
        'ratio, run 1': `${m1.ratio.median.toFixed(3)} [${i1.low.toFixed(2)}-${i1.high.toFixed(2)}]`,
        'ratio, run 2': `${m2.ratio.median.toFixed(3)} [${i2.low.toFixed(2)}-${i2.high.toFixed(2)}]`,
        'runs differ %': +(
          (Math.abs(m1.ratio.median - m2.ratio.median) / ((m1.ratio.median + m2.ratio.median) / 2)) *
          100
        ).toFixed(1),
        'rounds for 3 %': twice.map((m) => internal.roundsToAgree(m.ratio.runs)).join(', '),
        'CPU/req ratio': `${m1.cpuRatio.median.toFixed(2)}, ${m2.cpuRatio.median.toFixed(2)}`,
        'req/s CV %': twice.flatMap((m) => m.rps.map((r) => (r.cv * 100).toFixed(1))).join(' '),
        'server CPU %': twice.flatMap((m) => m.serverCpu.map((c) => c.toFixed(0))).join(' '),
        'generator CPU %': twice.flatMap((m) => m.generatorCpu.map((c) => c.toFixed(0))).join(' '),
        'saturated rounds': twice.map((m) => m.saturated.join('+')).join(', '),
        seconds: Math.round(m1.seconds + m2.seconds),
      })
      console.log(internal.textTable(rows.slice(-1)))
    }
  }
  console.log('')
  console.log(internal.textTable(rows))
  console.log(
    'ratio: the median of the per-round ratios of req/s, [its 95 % interval: bootstrap of the median]. ' +
      "runs differ: the two runs' medians apart, % of their mean. rounds for 3 %: how many rounds each run's " +
      "spread says two runs would need to agree within 3 % 95 % of the time (internal.roundsToAgree). CPU/req ratio: Express's server CPU per " +
      "request over node:http's. Per-app figures are listed node:http then Express, run 1 then run 2. " +
      `Saturated: rounds with the generator at ${wb.SATURATION_CPU_PERCENT} % or more of each of its threads.`,
  )
  const file = wb.saveResults('bench-harness', { designs: DESIGNS, rows, measured })
  console.log(`saved to ${file}`)
  if (values.chart) {
    const points = measured.flatMap((m) =>
      m.twice.flatMap((t, i) => [
        {
          label: `${m.generator}, ${m.design}, run ${i + 1}`,
          value: t.ratio.median,
          ...internal.medianInterval(t.ratio.runs),
        },
      ]),
    )
    const chart = wb.barsWithSpread(
      points.map((p) => ({ label: p.label, median: p.value, min: p.low, max: p.high })),
      {
        title: `${title(APPS[0])} / ${title(APPS[1])}, by generator and design, measured twice`,
        subtitle: `median of the per-round req/s ratios; whiskers: its 95 % interval; ${wb.describeMachine().split(' · ').slice(2, 4).join(', ')}`,
        unit: 'ratio (x)',
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
