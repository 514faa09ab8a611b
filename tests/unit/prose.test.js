'use strict'
// The sentences a learner reads, which depend on the run (harness/src/prose/*.ts): they must stay true
// whatever the numbers. Each test feeds figures on both sides of the line where the wording changes.
const { test } = require('node:test')
const { internal } = require('./helpers')

const { spreadText, ratioText, readingText, advantageText, saturationText, durationText, commandText } =
  internal('prose/describe')
const { predict, reveal, revealText } = internal('prose/predict')
const { retainerText } = internal('prose/findings')
// Sentences one notebook alone writes live beside it (notebooks/NN-name.ts).
const nb01 = require('../../notebooks/01-slow-etag-server.ts')
const clinic = require('../../notebooks/01-clinic-doctor.ts')
const { slowdownText, slowdownCount, ceilingText } = nb01
// What clinicDoctor returns: doctor's data and its sampling, read from it.
const doctorText = (d) => clinic.doctorText({ ...d, sampling: clinic.doctorSampling(d.data) })
const { blockShareText, scheduleText } = require('../../notebooks/02-event-loop.ts')
const { routeGapText } = require('../../notebooks/03-frameworks.ts')
const { checklist } = internal('prose/checks')
const { eta, etaSeconds } = internal('prose/eta')
const { loadRow } = internal('prose/tables')
const { runRows } = require('../../notebooks/00-getting-started.ts')
const { spread } = internal('core/stats')

/** What `fn` writes to stdout (outside a kernel, markdown() prints its text there), and what it returns or throws. */
function capture(fn) {
  const write = process.stdout.write
  let printed = ''
  process.stdout.write = (chunk, ...rest) => {
    printed += String(chunk)
    rest.find((a) => typeof a === 'function')?.()
    return true
  }
  try {
    return { value: fn(), printed }
  } catch (error) {
    return { error, printed }
  } finally {
    process.stdout.write = write
  }
}

// describe.ts

test('spreadText quotes the median with the number of runs and their range, and a single run alone', (t) => {
  t.assert.strictEqual(
    spreadText(spread([57630, 61234, 65270]), 'req/s'),
    '61,234 req/s (median of 3 runs, 57,630–65,270)',
  )
  t.assert.strictEqual(spreadText(spread([61234]), 'req/s'), '61,234 req/s')
  t.assert.match(spreadText(spread([10, 20, 30, 40, 50]), 'ms', 'apps'), /^30 ms \(median of 5 apps, 10–50\)$/)
})

test('a range whose ends would read the same gets the digits that tell them apart, or says each', (t) => {
  // Three fresh servers at 143.8, 144.0 and 144.2 req/s read "144–144" at three figures: one run is not three.
  t.assert.strictEqual(
    spreadText(spread([143.8, 144, 144.2]), 'req/s', 'fresh servers'),
    '144 req/s (median of 3 fresh servers, 143.8–144.2)',
  )
  t.assert.strictEqual(spreadText(spread([144, 144, 144]), 'req/s'), '144 req/s (median of 3 runs, each 144)')
  t.assert.strictEqual(
    spreadText(spread([22367.2, 22367.4]), 'req/s'),
    '22,367 req/s (median of 2 runs, 22,367.2–22,367.4)',
  )
  t.assert.strictEqual(
    ratioText(spread([1.521, 1.522, 1.524])),
    '1.52x (median of 3 rounds, range 1.521x–1.524x, a 75 % interval)',
  )
  t.assert.strictEqual(ratioText(spread([1.52, 1.52])), '1.52x (median of 2 rounds, each 1.52x, a 50 % interval)')
})

test('ratioText quotes a ratio as "Nx" with its rounds and range, and from 6 rounds on the interval of its median', (t) => {
  t.assert.strictEqual(
    ratioText(spread([1.4, 1.52, 1.61])),
    '1.52x (median of 3 rounds, range 1.40x–1.61x, a 75 % interval)',
  )
  t.assert.strictEqual(ratioText(spread([2])), '2.00x from one round')
  t.assert.strictEqual(ratioText(spread([Number.NaN])), 'n/a')
  t.assert.match(ratioText(spread([0.5, 0.6]), 'runs'), /median of 2 runs/)
  // 20 rounds, one of them far off: the interval of the median stays tight where the range does not
  const many = spread([...Array.from({ length: 19 }, (_, i) => 1.4 + i * 0.005), 3])
  t.assert.match(ratioText(many), /^1\.45x \(median of 20 rounds, 95 % interval 1\.4\dx–1\.4\dx\)$/)
})

test('medianInterval: the same values give the same interval; it holds the median and lies within the values', (t) => {
  const { medianInterval } = internal('core/stats')
  const values = [1.2, 1.5, 1.41, 1.44, 1.46, 1.38, 1.9, 1.43, 1.47, 1.45]
  const a = medianInterval(values)
  t.assert.deepStrictEqual(medianInterval(values), a)
  t.assert.ok(a.low <= 1.445 && 1.445 <= a.high && a.low >= 1.2 && a.high <= 1.9, JSON.stringify(a))
  t.assert.ok(a.high - a.low < 0.2, `a wild value moves the interval of the median little: ${JSON.stringify(a)}`)
  t.assert.deepStrictEqual(medianInterval([2]), { low: 2, high: 2, level: 0.95 })
  t.assert.ok(Number.isNaN(medianInterval([]).low))
})

test('roundsToAgree: rounds for two runs to agree within 3 %, from the interval of one run; wider spread, more rounds', (t) => {
  const { roundsToAgree, medianInterval } = internal('core/stats')
  // 20 rounds spread +-2 % around 1.5: its interval is narrow, so fewer rounds than it has would do
  const tight = Array.from({ length: 20 }, (_, i) => 1.5 * (0.98 + (i % 5) * 0.01))
  // the same median with a +-30 % spread: hundreds of rounds
  const wide = Array.from({ length: 20 }, (_, i) => 1.5 * (0.7 + (i % 5) * 0.15))
  const nt = roundsToAgree(tight)
  const nw = roundsToAgree(wide)
  const { low, high } = medianInterval(wide)
  const expected = Math.ceil(2 * 20 * ((high - low) / 2 / (0.03 * 1.5)) ** 2)
  t.assert.strictEqual(nw, expected, `wide: ${nw} rounds, the formula gives ${expected} (interval ${low}-${high})`)
  t.assert.ok(nt < 20 && nw > 100, `tight ${nt} rounds, wide ${nw}`)
  // a looser agreement asks for fewer rounds, by the square of the ratio
  t.assert.ok(Math.abs(roundsToAgree(wide, 0.06) - nw / 4) <= 1, `within 6 %: ${roundsToAgree(wide, 0.06)}`)
  t.assert.strictEqual(roundsToAgree([1.5, 1.5, 1.5]), 2)
  t.assert.ok(Number.isNaN(roundsToAgree([1.5])))
  t.assert.ok(Number.isNaN(roundsToAgree([0, 0, 0])))
})

test('predictionRange: where 99 runs in 100 of the next run fall, on the log scale for values above 0', (t) => {
  const { predictionRange } = internal('core/stats')
  // five values 1, 2, 4, 8, 16: logs evenly spaced around log 4, sd = log 2 x sqrt(2.5); t(4) at 99.5 % is 4.604
  const p = predictionRange([1, 2, 4, 8, 16])
  const half = 4.604 * Math.log(2) * Math.sqrt(2.5) * Math.sqrt(1.2)
  t.assert.ok(
    Math.abs(p.low - 4 * Math.exp(-half)) < 1e-9 && Math.abs(p.high - 4 * Math.exp(half)) < 1e-9,
    JSON.stringify(p),
  )
  t.assert.strictEqual(p.n, 5)
  // a value at or below 0 puts the prediction on the values themselves: mean 0, sd sqrt(2.5)
  const d = predictionRange([-2, -1, 0, 1, 2])
  t.assert.ok(Math.abs(d.high - 4.604 * Math.sqrt(2.5) * Math.sqrt(1.2)) < 1e-9 && d.low === -d.high, JSON.stringify(d))
  // more runs of the same spread predict a narrower range than the few; the range of the runs lies inside it
  const few = predictionRange([9, 10, 11, 10, 10.5])
  const many = predictionRange([9, 10, 11, 10, 10.5, 9, 10, 11, 10, 10.5])
  t.assert.ok(
    many.high - many.low < few.high - few.low && many.low < 9 && many.high > 11,
    JSON.stringify({ few, many }),
  )
  // fewer than five finite values: no prediction
  t.assert.strictEqual(predictionRange([1, 2, 3, 4]), null)
  t.assert.strictEqual(predictionRange([1, 2, 3, 4, Number.NaN]), null)
})

test('readingText: each reading of a req/s ratio says which side the generator capped', (t) => {
  t.assert.match(readingText('measured'), /kept up in every round/)
  t.assert.match(readingText('lower bound'), /first one's rounds.*lower bound/)
  t.assert.match(readingText('upper bound'), /second one's rounds.*upper bound/)
  t.assert.match(readingText('both capped'), /measures the generator, not the servers/)
  // Four different sentences: none of them is a copy of another.
  const all = ['measured', 'lower bound', 'upper bound', 'both capped'].map(readingText)
  t.assert.strictEqual(new Set(all).size, 4)
})

test('advantageText names the figure the ratio was decided on, and says when there is no ratio', (t) => {
  const ratio = spread([1.52, 1.6, 1.64, 1.66, 1.7])
  const byReq = advantageText('Fastify', 'Express', { ratio, decidedOn: 'reqPerSec', reading: 'measured' })
  t.assert.match(
    byReq,
    /^By requests per second, <!--wb:comparison kind=more [^>]*-->Fastify was faster than Express by 64 %: 1\.64x \(median of 5 rounds, range 1\.52x–1\.70x, a 94 % interval\)\. The load generator kept up in every round/,
  )
  t.assert.doesNotMatch(byReq, /CPU time/)

  const byCpu = advantageText('Fastify', 'Express', { ratio, decidedOn: 'cpuPerRequest', reading: 'both capped' })
  t.assert.match(byCpu, /^By the server's CPU time per request, <!--[^>]*-->Fastify was faster than Express by 64 %/)
  t.assert.match(byCpu, /measures the generator, not the servers; CPU time per request still measures each server\.$/)

  const few = advantageText('Fastify', 'Express', {
    ratio: spread([1.52, 1.64, 1.7]),
    decidedOn: 'reqPerSec',
    reading: 'measured',
  })
  t.assert.match(
    few,
    /-->Fastify over Express: 1\.64x \(median of 3 rounds, range 1\.52x–1\.70x, a 75 % interval\): too few rounds for a verdict\./,
  )
  const none = advantageText('A', 'B', { ratio: null, decidedOn: 'reqPerSec', reading: 'measured' })
  t.assert.strictEqual(none, 'A and B have no round in common: no ratio.')
})

test('saturationText: kept up, saturated in some runs, saturated in every run', (t) => {
  const load = (saturatedRuns, cpu, n = 3, name = 'autocannon') => ({
    generator: { name, saturatedRuns, cpuPercent: spread(cpu) },
    runs: Array.from({ length: n }, (_, i) => ({ run: String(i + 1) })),
  })
  const ok = saturationText(load(0, [40, 45, 50]))
  t.assert.match(ok, /^The load generator kept up: autocannon's thread used 45 % of a core/)
  t.assert.match(
    saturationText(load(0, [60, 62, 70], 3, 'wrk')),
    /^The load generator kept up: wrk used 62 % of a core/,
  )
  t.assert.match(ok, /below the 90 % line/)
  t.assert.doesNotMatch(ok, /saturated/)

  const some = saturationText(load(1, [85, 92, 88]))
  t.assert.match(some, /^The load generator was saturated in 1 of 3 runs, at or above the 90 % line in those; /)
  t.assert.match(some, /over all 3, autocannon's thread used 88 % of a core.*a floor for the server/)
  // The median of all the runs (88 %) is never said to be at or above the line.
  t.assert.doesNotMatch(some, /88 % of a core[^.]*at or above/)

  const all = saturationText(load(3, [95, 97, 99]))
  t.assert.match(all, /saturated in every run \(3 runs\)/)
})

test('durationText rounds to 5 s below a minute and a half, to minutes above, and never says less than 5 s', (t) => {
  t.assert.strictEqual(durationText(1), 'about 5 s')
  t.assert.strictEqual(durationText(44), 'about 45 s')
  t.assert.strictEqual(durationText(62), 'about 60 s')
  t.assert.strictEqual(durationText(130), 'about 2 min')
  t.assert.strictEqual(durationText(600), 'about 10 min')
})

// predict.ts

test('revealText with no guess says so and gives the measurement', (t) => {
  const text = revealText({ question: 'req/s at 10 connections', guess: null, unit: 'req/s' }, 12345)
  t.assert.strictEqual(text, 'You made no guess for "req/s at 10 connections"; this run measured **12,345 req/s**.')
})

test('revealText: within 25 % of the guess, or how many times the guess it was', (t) => {
  const p = { question: 'req/s', guess: 10000, unit: 'req/s' }
  const close = revealText(p, 12000)
  t.assert.match(
    close,
    /^You predicted 10,000 req\/s for "req\/s"; this run measured \*\*12,000 req\/s\*\*: within 25 % of it\.$/,
  )
  t.assert.match(revealText(p, 8500), /within 25 % of it/)

  const far = revealText(p, 30000)
  t.assert.match(far, /\*\*30,000 req\/s\*\*: 3\.00x your guess\.$/)
  t.assert.doesNotMatch(far, /within/)
  t.assert.match(revealText(p, 1000), /0\.10x your guess/)
  // just outside 25 % either way is no longer "within"
  t.assert.match(revealText(p, 13000), /1\.30x your guess/)
  t.assert.match(revealText(p, 7500), /0\.75x your guess/)

  // a ratio question shows both numbers as ratios
  t.assert.match(
    revealText({ question: 'speed-up', guess: 2, unit: 'x' }, 6),
    /predicted 2\.00x .*\*\*6\.00x\*\*: 3\.00x your guess/,
  )
})

test('revealText with a word for a guess, or a guess of 0, sets them side by side without a ratio', (t) => {
  const words = revealText({ question: 'which framework wins', guess: 'express', unit: '' }, 'fastify')
  t.assert.strictEqual(words, 'You predicted express for "which framework wins"; this run gave **fastify**.')
  const zero = revealText({ question: 'errors', guess: 0, unit: '' }, 3)
  t.assert.match(zero, /predicted 0 .*gave \*\*3\*\*\.$/)
  t.assert.doesNotMatch(zero, /your guess|Infinity|n\/a/)
})

test('predict with a null guess asks for one, keeps the question, and reveal() prints revealText', (t) => {
  const asked = capture(() => predict('req/s at 10 connections', null, 'req/s'))
  t.assert.deepStrictEqual(asked.value, { question: 'req/s at 10 connections', guess: null, unit: 'req/s' })
  t.assert.match(
    asked.printed,
    /\*\*Your prediction\*\* — req\/s at 10 connections: _none yet: replace `null` with your guess/,
  )

  const guessed = capture(() => predict('speed-up', 1.5, 'x'))
  t.assert.match(guessed.printed, /speed-up: \*\*1\.50x\*\*/)
  t.assert.strictEqual(guessed.value.guess, 1.5)

  const shown = capture(() => reveal(guessed.value, 4.5))
  t.assert.strictEqual(shown.printed.trim(), revealText(guessed.value, 4.5))
  t.assert.match(shown.printed, /3\.00x your guess/)
})

// findings.ts

/** A fresh app's load: per second, its run ("warm-up" or "1"), req/s and p99. */
const freshRun = (...seconds) => ({
  series: seconds.map(([run, reqPerSec, latencyP99Ms]) => ({ run, reqPerSec, latencyP99Ms })),
})

test('slowdownText: every fresh server slowing, none, or some, counted on measured seconds only', (t) => {
  const climbing = freshRun(['1', 1000, 10], ['1', 1000, 30])
  const flat = freshRun(['1', 1000, 10], ['1', 1000, 10.5])
  const all = slowdownText({ runs: [climbing, climbing, climbing] })
  t.assert.match(
    all,
    /^In \*\*3 of 3\*\* fresh servers the p99 .* more than 1\.2x .*: the servers slow down as they serve\.$/,
  )
  const none = slowdownText({ runs: [flat, flat] })
  t.assert.match(none, /\*\*0 of 2\*\*.*no sign of a slowdown in this run\.$/)
  const some = slowdownText({ runs: [climbing, flat, flat] })
  t.assert.match(some, /\*\*1 of 3\*\*.*some slowed down within their run, some did not/)
  t.assert.match(slowdownText({ runs: [climbing, climbing, flat] }), /\*\*2 of 3\*\*.*some slowed down/)
  t.assert.match(slowdownText({ runs: [flat] }, 1.01), /\*\*1 of 1\*\*.*more than 1\.01x/)

  // The warm-up second and seconds without an answer are not part of the trend.
  const coldStart = freshRun(['warm-up', 1000, 1], ['1', 1000, 10], ['1', 1000, 10], ['1', 0, 500])
  t.assert.deepStrictEqual(slowdownCount({ runs: [coldStart] }), { climbing: 0, of: 1 })
  // A server with a single measured second shows no trend.
  t.assert.deepStrictEqual(slowdownCount({ runs: [freshRun(['1', 1000, 10])] }), { climbing: 0, of: 1 })
})

/** clinic doctor's data: its processStat samples as [ms, handles], and its verdict. */
const doctor = (samples, issues = { delay: 'performance', cpu: 'none', handles: 'performance' }) => ({
  data: {
    traceEvent: [],
    analysis: { issues, issueCategory: 'performance' },
    processStat: samples.map(([timestamp, handles]) => ({
      timestamp,
      handles,
      delay: 0,
      cpu: 0.5,
      memory: { rss: 1, heapTotal: 1, heapUsed: 1, external: 0 },
    })),
  },
})

test('doctorText names the flagged issues and how sparsely doctor sampled under load', (t) => {
  // Idle at 5 handles; under load (105 handles) for 2 s, one sample every 200 ms where 10 ms was asked for.
  const underLoad = Array.from({ length: 11 }, (_, k) => [100 + 200 * k, 105])
  const blocked = doctor([[0, 5], [10, 5], ...underLoad, [2200, 5]])
  const text = doctorText(blocked)
  t.assert.match(
    text,
    /^Doctor's verdict: \*\*performance\*\*; flagged as a performance issue: \*\*delay, handles\*\*\./,
  )
  t.assert.match(
    text,
    /every 10 ms and took \*\*11 under load\*\* over 2 s, where its interval would have given about 201/,
  )
  t.assert.match(text, /one every \*\*200 ms\*\* \(median gap\)/)
  t.assert.match(text, /Active handles: 5 idle, 105 at the peak \(100 for the load's connections\)\.$/)

  const healthy = doctorText(
    doctor(
      blocked.data.processStat.map((s) => [s.timestamp, s.handles]),
      { cpu: 'none' },
    ),
  )
  t.assert.match(healthy, /flagged as a performance issue: \*\*nothing\*\*/)

  const starved = doctorText(
    doctor([
      [0, 5],
      [500, 105],
      [1000, 5],
    ]),
  )
  t.assert.match(starved, /It took 3 samples, fewer than two of them under load\.$/)
})

test('ceilingText: short of the ceiling, within 10 % of it, above it, or too few rounds to say', (t) => {
  const words = (text) => text.replace(/<!--[^>]*-->/, '')
  const close = ceilingText('Fastify', 'its ceiling', spread([0.88, 0.9, 0.92, 0.94, 0.97]))
  t.assert.strictEqual(
    words(close),
    'Fastify was slower than its ceiling by 8.0 %: 0.92x (median of 5 rounds, range 0.88x–0.97x, a 94 % interval), within 10 % of it.',
  )
  const short = ceilingText('Express', 'its ceiling', spread([0.5, 0.55, 0.6, 0.65, 0.7]))
  t.assert.match(words(short), /^Express was slower than its ceiling by 40 %: 0\.60x/)
  const above = ceilingText('Koa', 'its ceiling', spread([1.1, 1.15, 1.2, 1.25, 1.3]))
  t.assert.match(
    words(above),
    /^Koa was faster than its ceiling by 20 %.*: check that the two still do the same work\.$/,
  )
  // One round is no verdict, never a range with equal ends (51 %–51 %).
  t.assert.strictEqual(
    words(ceilingText('etag-optimised', 'etag-ceiling', spread([0.51]))),
    'etag-optimised over etag-ceiling: 0.51x from one round: no interval, so no verdict.',
  )
})

test('ceilingText does not call a median well above the ceiling "within 10 %"', (t) => {
  const text = ceilingText('Koa', 'its ceiling', spread([0.99, 1.3, 1.4]))
  t.assert.doesNotMatch(text, /within 10 %/)
})

test('blockShareText: blocks under half the loop decide the tail, over half they reach the median', (t) => {
  const tail = blockShareText(0.4, 0.1)
  t.assert.match(
    tail,
    /busy 40 % of the time .* against 10 % without the blocks: they took about 30 % of it, less than half/,
  )
  t.assert.match(tail, /the blocks decide p90 and p99 far more than the median\.$/)
  const median = blockShareText(0.95, 0.2)
  t.assert.match(median, /they took about 75 % of it, more than half/)
  t.assert.match(median, /the blocks reach the median too\.$/)
})

test('scheduleText: a generator late by less than the gap kept its schedule; by more, it was saturated', (t) => {
  const kept = scheduleText({ p99: 2, worst: 'express at 2,000 req/s' }, 10)
  t.assert.match(kept, /at most 2 ms late at p99 \(worst: express at 2,000 req\/s\), below the 10 ms between/)
  t.assert.match(kept, /it kept its schedule, and the latencies are the apps'\.$/)
  const late = scheduleText({ p99: 25, worst: 'koa' }, 10)
  t.assert.match(late, /at most 25 ms late.*more than the 10 ms between two requests, so it was saturated/)
})

test('retainerText names the module-level variable and the collection it holds, or says the object was garbage', (t) => {
  const path = [
    { holder: '(GC roots)', edge: '[10]', edgeType: 'element' },
    { holder: 'Object', edge: 'record', edgeType: 'property' },
    { holder: 'function record', edge: 'context', edgeType: 'internal' },
    { holder: 'system / Context', edge: 'audit', edgeType: 'context' },
    { holder: 'Map', edge: 'table', edgeType: 'internal' },
  ]
  const text = retainerText(path)
  t.assert.match(
    text,
    /^The chain of references from a GC root: `\(GC roots\) \[10\]` → `Object\.record` → `function record context` → `system \/ Context\.audit` → `Map table`\./,
  )
  t.assert.match(text, /hang off \*\*`audit`\*\*, a \*\*Map\*\* held by a variable of a closure's scope/)

  const noVariable = retainerText(path.slice(0, 2))
  t.assert.match(noVariable, /^The chain of references from a GC root: .*`Object\.record`\.$/)
  t.assert.doesNotMatch(noVariable, /hang off/)

  t.assert.match(retainerText([]), /Nothing reached the object from a GC root: it was garbage/)
})

// checks.ts

test('a checklist that all passed prints every line as ok and does not throw', (t) => {
  const c = checklist()
    .expect(true, 'every app answered 200')
    .atLeast('Fastify over Express', 1.52, 1.2)
    .atLeast('cluster over one process', spread([1.3, 1.8, 1.9]), 1.5)
    .below('p99', 25, 50, 'ms')
  const run = capture(() => c.done())
  t.assert.strictEqual(run.error, undefined)
  t.assert.strictEqual(c.failed.length, 0)
  t.assert.match(run.printed, /^ok {6}every app answered 200$/m)
  t.assert.match(run.printed, /^ok {6}Fastify over Express: 1\.52x, at least 1\.2x$/m)
  t.assert.match(
    run.printed,
    /^ok {6}cluster over one process: 1\.80x \(median of 3 rounds, range 1\.30x–1\.90x, a 75 % interval\), at least 1\.5x$/m,
  )
  t.assert.match(run.printed, /^ok {6}p99: 25 ms, below 50 ms$/m)
  t.assert.doesNotMatch(run.printed, /FAILED/)
})

test('each kind of check fails on the wrong side of its limit, and done() names every failed line', (t) => {
  const c = checklist()
    .expect(false, 'the cache was hit')
    .expect(true, 'the server started')
    .atLeast('speed-up', 1.1, 1.2)
    // a Spread is judged by its median: one good round does not pass it
    .atLeast('cluster gain', spread([1.0, 1.1, 1.9]), 1.5)
    .below('p99', 60, 50, 'ms')
    // "below" is strict, and a figure that could not be measured never passes
    .below('event-loop delay', 50, 50, 'ms')
    .below('GC share', Number.NaN, 1)
    .atLeast('gain', Number.NaN, 1)
  const run = capture(() => c.done())
  t.assert.ok(run.error instanceof Error, 'done() must throw when a check failed')
  const lines = [
    'the cache was hit',
    'speed-up: 1.10x, at least 1.2x',
    'cluster gain: 1.10x (median of 3 rounds, range 1.00x–1.90x, a 75 % interval), at least 1.5x',
    'p99: 60 ms, below 50 ms',
    'event-loop delay: 50 ms, below 50 ms',
    'GC share: n/a, below 1',
    'gain: n/a, at least 1x',
  ]
  t.assert.deepStrictEqual(c.failed, lines)
  t.assert.match(run.error.message, /^7 check\(s\) failed:/)
  for (const line of lines) {
    t.assert.ok(run.error.message.includes(`\n${line}`), `the error names "${line}"`)
    t.assert.ok(run.printed.includes(`FAILED  ${line}`), `the printout marks "${line}" as failed`)
  }
  t.assert.ok(!run.error.message.includes('the server started'), 'a passed line is not in the error')
  t.assert.match(run.printed, /^ok {6}the server started$/m)
})

test('a check this platform cannot measure is skipped with its reason: never passed, never failed, and counted', (t) => {
  const c = checklist()
    .expect(true, 'the server started')
    .atLeast('CPU per request, autocannon over wrk', null, 1)
    .below('server CPU per request', null, 100, 'µs')
    .expect(null, 'the generator kept up')
    .skip('threads at their peak', 'not measured on this platform (no ps)')
  t.assert.deepStrictEqual(c.failed, [])
  t.assert.deepStrictEqual(c.passed, ['the server started'])
  t.assert.strictEqual(c.skipped.length, 4)
  t.assert.match(c.skipped[0], /^CPU per request, autocannon over wrk: skipped: not measured on this platform \(.+\)$/)
  t.assert.strictEqual(c.skipped[3], 'threads at their peak: skipped: not measured on this platform (no ps)')
  const run = capture(() => c.done())
  t.assert.strictEqual(run.error, undefined, 'skipped checks do not fail the cell')
  t.assert.match(run.printed, /^skipped the generator kept up: skipped: not measured on this platform/m)
  t.assert.match(run.printed, /^1 ok, 4 skipped, 0 failed$/m)
  // NaN is a figure that was measured and came out wrong: it still fails, it is not skipped.
  const nan = checklist().atLeast('gain', Number.NaN, 1)
  t.assert.deepStrictEqual([nan.failed.length, nan.skipped.length], [1, 0])
  t.assert.match(capture(() => nan.done()).printed, /^0 ok, 0 skipped, 1 failed$/m)
})

const outcome = (label, statusCodes, errors = 0, timeouts = 0) => ({ label, statusCodes, errors, timeouts })

test('clean() fails a load with errors, timeouts or an unexpected status, naming the load', (t) => {
  const good = checklist().clean([outcome('express', { 200: 500 }), outcome('fastify', { 200: 400, 204: 3 })])
  t.assert.deepStrictEqual(good.failed, [])
  t.assert.strictEqual(capture(() => good.done()).error, undefined)
  t.assert.match(good.passed[0], /2 loads answered without errors, timeouts or unexpected statuses/)

  const bad = checklist().clean([
    outcome('express', { 200: 500 }),
    outcome('koa', { 200: 10, 500: 5 }),
    outcome('hono', { 200: 10 }, 2, 1),
  ])
  t.assert.ok(bad.failed.includes('koa: unexpected statuses: 5 x 500'), bad.failed.join('\n'))
  t.assert.ok(bad.failed.includes('hono: 2 errors and 1 timeouts'), bad.failed.join('\n'))
  t.assert.ok(!bad.failed.some((f) => f.startsWith('express')), 'the clean load is not named')
  const run = capture(() => bad.done())
  t.assert.match(run.error.message, /check\(s\) failed:\n(.*\n)*koa: .*\n(.*\n)*hono: /)

  // An allowed status (a shedding app's 503) passes, any other still fails.
  t.assert.deepStrictEqual(checklist().clean([outcome('shed', { 200: 5, 503: 9 })], [503]).failed, [])
  const other = checklist().clean([outcome('shed', { 200: 5, 503: 9, 500: 1 })], [503]).failed
  t.assert.ok(other.includes('shed: unexpected statuses: 1 x 500'), other.join('\n'))
})

test('clean() does not also print "ok" for the loads when one of them failed', (t) => {
  const bad = checklist().clean([outcome('express', { 200: 500 }), outcome('koa', { 500: 5 })])
  const run = capture(() => bad.done())
  t.assert.doesNotMatch(run.printed, /^ok .*answered without errors/m)
})

test('clean() over no loads at all fails instead of passing "0 loads answered without errors"', (t) => {
  const none = checklist().clean([])
  t.assert.ok(none.failed.length > 0)
})

// eta.ts and tables.ts

test('etaSeconds: each target warms up once and runs every round; extra seconds add; eta() prints the estimate', (t) => {
  const one = etaSeconds({ targets: 1, rounds: 3, duration: 10, warmup: 5 })
  t.assert.ok(one >= 35 && one < 40, `3 runs of 10 s and a 5 s warm-up take 35 s and a little: ${one}`)
  t.assert.strictEqual(etaSeconds({ targets: 4, rounds: 3, duration: 10, warmup: 5 }), 4 * one)
  t.assert.strictEqual(etaSeconds({ targets: 1, rounds: 3, duration: 10, warmup: 5, extra: 20 }), one + 20)
  t.assert.ok(etaSeconds({ rounds: 6, duration: 10, warmup: 5 }) > 1.8 * one)

  const saved = process.env.WORKBOOK_PROFILE
  t.after(() => {
    if (saved === undefined) delete process.env.WORKBOOK_PROFILE
    else process.env.WORKBOOK_PROFILE = saved
  })
  process.env.WORKBOOK_PROFILE = 'quick'
  const quick = etaSeconds({ targets: 12 })
  process.env.WORKBOOK_PROFILE = 'full'
  const full = etaSeconds({ targets: 12 })
  t.assert.ok(quick < full, `the quick profile's defaults are shorter: ${quick} vs ${full}`)

  const shown = capture(() => eta('the table, 12 apps in rounds', { targets: 12 }))
  t.assert.strictEqual(shown.value, full)
  t.assert.strictEqual(
    shown.printed.trim(),
    `**Takes ${durationText(full)}** (profile "full"): the table, 12 apps in rounds.`,
  )
})

test('runRows and loadRow: one row per run, one per load, saying where the generator was saturated', (t) => {
  const run = (name, reqPerSec, saturated) => ({
    run: name,
    reqPerSec,
    latencyMs: { p50: 1, p99: 5 },
    cpuPerRequestUs: 40,
    serverCpuPercent: 95,
    generatorCpuPercent: saturated ? 97 : 60,
    saturated,
  })
  const load = {
    runs: [run('1', 20000, false), run('2', 21000, true), run('3', 22500, false)],
    reqPerSec: spread([20000, 21000, 22500]),
    cpuPerRequestUs: null,
    latencyMs: { p50: 1, p75: 2, p90: 3, p99: 5 },
    bytesPerSec: 1_360_000,
    generator: { name: 'wrk', saturatedRuns: 1 },
  }
  const rows = runRows(load)
  t.assert.deepStrictEqual(
    rows.map((r) => [r.run, r['req/s'], r['generator saturated']]),
    [
      ['1', 20000, 'no'],
      ['2', 21000, 'yes'],
      ['3', 22500, 'no'],
    ],
  )
  const row = loadRow('express', load)
  t.assert.strictEqual(row[''], 'express')
  t.assert.strictEqual(row['req/s'], 21000)
  t.assert.strictEqual(row['req/s range'], '20,000–22,500')
  t.assert.strictEqual(row['server µs/request'], null)
  t.assert.strictEqual(row['generator saturated'], '1 of 3 runs (wrk)')
  t.assert.deepStrictEqual([row['p75 ms'], row['p90 ms'], row['transfer/s']], [2, 3, '1.36 MB'])
  t.assert.ok('wrk CPU %' in rows[0], Object.keys(rows[0]).join(', '))
  // a single run has no range to give (the quick profile's one round)
  const single = { ...load, runs: load.runs.slice(0, 1), reqPerSec: spread([20000]) }
  t.assert.strictEqual(loadRow('express', single)['req/s range'], 'one run')
})

test('commandText prints what ran as one shell block, labelled only when there are several', (t) => {
  const one = commandText({ label: 'a', command: 'wrk -t1 -c10 -d1s http://127.0.0.1:1/' })
  t.assert.match(one, /^The command that ran \(from the workbook's folder, while the server runs\):/)
  t.assert.match(one, /```sh\nwrk -t1 -c10 -d1s http:\/\/127\.0\.0\.1:1\/\n```$/)
  t.assert.doesNotMatch(one, /# a/)
  const two = commandText({ label: 'slow', command: 'x' }, { label: 'fixed', command: 'y' })
  t.assert.match(two, /^The commands that ran/)
  t.assert.match(two, /```sh\n# slow\nx\n# fixed\ny\n```$/)
  // With the server's own command: it comes first, and the load is run from a second terminal.
  const served = commandText({ label: 'a', command: 'wrk URL', serverCommand: 'PORT=1 node apps/a/server.js' })
  t.assert.match(served, /^The command that ran \(from the workbook's folder\):/)
  t.assert.match(
    served,
    /```sh\n# the server\nPORT=1 node apps\/a\/server\.js\n# the load, from a second terminal\nwrk URL\n```$/,
  )
  const mixed = commandText(
    { label: 'a', command: 'x', serverCommand: 'S' },
    { label: 'b', command: 'y', serverCommand: null },
  )
  t.assert.match(mixed, /```sh\n# a: the server\nS\n# a: the load, from a second terminal\nx\n# b: the load\ny\n```$/)
})

test("commandText of a tool's run names each file it wrote, with what opens it, then the commands", (t) => {
  const { repoRoot } = internal('core/paths')
  const text = commandText({
    command: 'PORT=4000 node --cpu-prof --cpu-prof-dir=results/profiles/x-1 apps/x/server.js',
    file: `${repoRoot}/results/profiles/x-1/CPU.1.cpuprofile`,
    load: { label: 'x', command: 'wrk -t1 -c100 -d5s http://127.0.0.1:4000/' },
  })
  t.assert.match(
    text,
    /^The file it wrote:\n\n\* `results\/profiles\/x-1\/CPU\.1\.cpuprofile`: open it in Chrome DevTools .*speedscope/,
  )
  t.assert.match(text, /```sh\nPORT=4000 node --cpu-prof .*\n# meanwhile, the load:\nwrk -t1 .*\n```$/)
  const snaps = commandText({ command: 'node a.js\nkill -USR2 <its pid>', files: ['/elsewhere/a.heapsnapshot', null] })
  t.assert.match(snaps, /^The file it wrote:\n\n\* `\/elsewhere\/a\.heapsnapshot`: open it in Chrome DevTools .*Memory/)
  t.assert.doesNotMatch(snaps, /meanwhile/)
  t.assert.match(snaps, /\nWhat ran, from the workbook's folder:/)
  const equivalent = commandText({ command: 'node --heapsnapshot-signal=SIGUSR2 a.js', commandKind: 'equivalent' })
  t.assert.match(equivalent, /^The same from the command line, from the workbook's folder:/)
  t.assert.doesNotMatch(commandText({ command: 'make diagnose APP=x' }), /wrote/)
  // A load has a label; a tool's run has none, and is printed on its own.
  t.assert.throws(
    () => commandText({ command: 'make diagnose APP=x' }, { label: 'a', command: 'wrk URL' }),
    /commandText: .*one per call/,
  )
})

test('routeGapText: the gap on each route, and whether the costliest route narrowed it or widened it, by its interval', (t) => {
  const words = (text) => text.replace(/<!--[^>]*-->/, '')
  // five rounds each; /blog's gap 0.75x, 1.25x or 1.0x of /hello's, give or take a little
  const rows = (factor) => [
    { route: '/hello', a: [10, 10, 10, 10, 10], b: [20, 20, 20, 20, 20] },
    { route: '/blog', a: [40, 40, 40, 40, 40], b: [0.98, 0.99, 1, 1.01, 1.02].map((j) => 80 * factor * j) },
  ]
  const narrowed = words(routeGapText('node:http', 'Express', rows(0.75)))
  t.assert.match(
    narrowed,
    /^Express used 2\.00x on `\/hello`, 1\.50x on `\/blog` of node:http's CPU time per request\./,
  )
  t.assert.match(
    narrowed,
    /The gap on `\/blog` over the gap on `\/hello`, round by round: narrowed by 25 %: 0\.75x \(median of 5 rounds/,
  )
  t.assert.match(words(routeGapText('node:http', 'Express', rows(1.25))), /round by round: widened by 25 %/)
  t.assert.match(
    words(routeGapText('node:http', 'Express', rows(1))),
    /round by round: no difference this run could see/,
  )
  const three = [rows(0.75)[0], rows(0.75)[1]].map((r) => ({ ...r, a: r.a.slice(0, 3), b: r.b.slice(0, 3) }))
  t.assert.match(words(routeGapText('node:http', 'Express', three)), /too few rounds for a verdict/)
  t.assert.throws(() => routeGapText('a', 'b', rows(1).slice(0, 1)), /two routes or more/)
})

test('codeExcerpt names its lines: a range, or one line alone (never "lines 7–7")', (t) => {
  const { codeExcerpt } = internal('prose/code')
  t.assert.match(codeExcerpt('hello-http/server.js', 1, 3), /^`apps\/hello-http\/server\.js`, lines 1–3:\n\n```js\n/)
  t.assert.match(codeExcerpt('hello-http/server.js', 2, 2), /^`apps\/hello-http\/server\.js`, line 2:\n\n```js\n/)
  // The harness code a lesson runs, named from the workbook's folder; nothing outside that folder.
  t.assert.match(codeExcerpt('../harness/preload/probe.cjs', 1, 2), /^`harness\/preload\/probe\.cjs`, lines 1–2:/)
  t.assert.throws(() => codeExcerpt('../../etc/passwd', 1, 2), /outside the workbook's folder/)
  t.assert.throws(() => codeExcerpt('hello-http/nothing.js'), /no file apps\/hello-http\/nothing\.js/)
})
