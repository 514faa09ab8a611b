'use strict'
// Integration: what notebook 05's first micro-benchmark must show, timed (tests/integration/, make
// test-integration). A result the benchmark drops lets V8 skip the work, and Math.pow of constants is
// folded to a constant: both run far faster than the work kept. The unit test (tests/unit/micro.test.js)
// checks the report's shape; these are timings, so they run here, with the quick profile's durations,
// and a failure prints every figure compared. Notebook 05's checks ask the same of the same tasks (kept
// over dropped at least 3x; their spread is in notebooks/spreads.json); a busy machine beside the unit
// tests once lifted the folded Math.pow above its suspect line, so this is not a unit test.
const { test } = require('node:test')
const micro = require('../../notebooks/05-microbench.ts')

test('a dropped result runs faster than a kept one, and Math.pow of constants is flagged, Math.pow of the input not', async (t) => {
  const r = await micro.microbench('micro/lies.js', { timeMs: 150, warmupMs: 50 })
  const figures = JSON.stringify({
    floorNs: r.floorNs,
    suspectBelow: r.suspectBelow,
    tasks: r.tasks.map((x) => ({ name: x.name, meanNs: x.meanNs, rme: x.rme, suspect: x.suspect })),
  })
  const kept = micro.microTask(r, 'build an object, result kept')
  const dropped = micro.microTask(r, 'build an object, result dropped')
  t.assert.ok(kept.meanNs > dropped.meanNs * 2, `kept over dropped, at least 2x: ${figures}`)
  t.assert.ok(micro.microTask(r, 'Math.pow of constants, kept').suspect, `constants flagged: ${figures}`)
  t.assert.ok(!micro.microTask(r, 'Math.pow of the input, kept').suspect, `the input not flagged: ${figures}`)
})
