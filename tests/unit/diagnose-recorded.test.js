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
