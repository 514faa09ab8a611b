'use strict'
// The diagnosis's rules on evidence recorded from real diagnoses: for each server of the calibration
// set (tests/fixtures/diagnose/cases.json), the one diagnosis of those recorded whose readings sat
// closest to the shipped lines (scripts/calibrate-diagnosis.js --save-evidence). The rules are pure,
// so this is deterministic: a change to the rules or the lines that would call one of these servers
// wrong fails here, before any live load.
const { test } = require('node:test')
const fs = require('node:fs')
const path = require('node:path')

const { tool } = require('./helpers')
const { decide } = tool('diagnose/verdict')
const { THRESHOLDS } = tool('diagnose/thresholds')

const dir = path.join(__dirname, '..', 'fixtures', 'diagnose', 'evidence')
const recorded = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ file: f, ...JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) }))
const cases = JSON.parse(fs.readFileSync(path.join(dir, '..', 'cases.json'), 'utf8')).cases

test('every server of the calibration set has recorded evidence', (t) => {
  t.assert.deepStrictEqual(
    cases.map((c) => c.name).filter((name) => !recorded.some((r) => r.case === name)),
    [],
    'run: node scripts/calibrate-diagnosis.js --report --save-evidence tests/fixtures/diagnose/evidence',
  )
})

for (const r of recorded) {
  const right = r.or ? `${r.expected} or ${r.or}` : r.expected
  test(`recorded: ${r.case} is diagnosed ${right}${r.cause ? ` (${r.cause})` : ''}`, (t) => {
    const v = decide(r.evidence, THRESHOLDS)
    const e = r.evidence
    const readings = `elu ${e.elu}, shares ${JSON.stringify(e.busy.shares)}, latency/CPU ${e.latencyOverCpu}, heap kept ${e.heap.keptMBps} MB/s, external kept ${e.external.keptMBps} MB/s`
    const why = `${r.file}: ${readings}\n${v.lines.join('\n')}`
    t.assert.ok(v.id === r.expected || v.id === r.or, `got ${v.id}, expected ${right}\n${why}`)
    if (r.cause && v.id === r.expected) t.assert.strictEqual(v.cause, r.cause, why)
  })
}

// --- the yardstick's promise, over every recorded diagnosis: a request at FAR_ABOVE_REFERENCE times its
// reference or more is never called healthy, and one under it (at its reference) never blocked, whatever
// the shares of its busy time: as recorded, and with the same busy time at exactly the line and at 1x.
// (Synchronous I/O is judged by its share of the loop's busy time, its wall time, not by CPU: verdict.ts.)
const { yardstick } = tool('diagnose/yardstick')
const FAR = THRESHOLDS.FAR_ABOVE_REFERENCE

/** The recorded evidence with its request costing `ratio` times its reference: the same busy time, the yardstick read again. */
function atRatio(e, ratio) {
  const y = e.yardstick
  const ref = y.against === 'framework' ? y.framework : y.bare
  const ms = ratio * ref.cpuPerRequestMs
  return { ...e, cpuPerRequestMs: ms, yardstick: yardstick(e.busy, ms, y) }
}

/** The loop's verdict (memory's aside): the finding after memory's, "healthy" when it did not fire. */
const loopOf = (v) => v.findings[1].id

/** Each way the recorded diagnoses break the promise under `judge`, with the numbers it compared. */
function broken(set, judge) {
  const out = []
  for (const r of set.filter((x) => x.evidence.yardstick?.ratio > 0)) {
    const readings = (e) => `${r.file}: CPU per request ${e.cpuPerRequestMs} ms, ${e.yardstick.ratio}x its reference`
    for (const [what, e] of [
      ['as recorded', r.evidence],
      [`at ${FAR}x`, atRatio(r.evidence, FAR)],
      ['at 1x', atRatio(r.evidence, 1)],
    ]) {
      const id = loopOf(judge(e))
      if (e.yardstick.ratio >= FAR && id === 'healthy') out.push(`${what}, healthy: ${readings(e)}`)
      if (e.yardstick.ratio < FAR && id === 'blocked') out.push(`${what}, blocked: ${readings(e)}`)
    }
  }
  return out
}

test('every recorded diagnosis was measured beside its reference', (t) => {
  t.assert.deepStrictEqual(
    recorded.filter((r) => !(r.evidence.yardstick?.ratio > 0)).map((r) => r.file),
    [],
  )
})

test(`no recorded diagnosis is healthy at ${FAR}x its reference or more, or blocked under it`, (t) => {
  t.assert.deepStrictEqual(
    broken(recorded, (e) => decide(e, THRESHOLDS)),
    [],
  )
})

test('the promise fails on the wrong input: the same diagnoses judged by their shares alone break it', (t) => {
  const sharesAlone = broken(recorded, (e) => decide({ ...e, yardstick: null }, THRESHOLDS))
  t.assert.ok(sharesAlone.length > 0, 'judged without the yardstick, some diagnosis should break the promise')
})
