'use strict'
// Every check's line against the runs it was set from (notebooks/spreads.json, written by make spreads):
// a line must lie beyond the 99 % prediction its runs make (core/stats.ts predictionRange), quiet and busy
// runs together, so that a run on a busy 2-core machine passes every time, not usually. A line inside that
// prediction is a check that fails about once in a hundred runs or more: move the line, or change what
// the check compares, then measure again (make spreads). A line 10x or more beyond every recorded value
// passes too: quiet and busy runs of one check can differ by a factor of ten (02's shedding), and one
// log-normal fitted to both then predicts a range no line could clear; 10x is the guide's margin for a
// fixture that must differ on its deciding axis.
const fs = require('node:fs')
const path = require('node:path')
const { test } = require('node:test')
const { internal } = require('./helpers')

const { predictionRange } = internal('core/stats')

/** A line this many times beyond every recorded value holds whatever the prediction. */
const FAR = 10

/**
 * Each recorded check whose line lies inside the prediction of its runs, as a sentence with every number
 * compared; `short`: the checks with a line but fewer runs than a prediction needs.
 */
function linesInsidePrediction(spreads, profile = 'quick') {
  const inside = []
  const short = []
  for (const [notebook, checks] of Object.entries(spreads.notebooks))
    for (const [name, byProfile] of Object.entries(checks)) {
      const s = byProfile[profile]
      if (!s || typeof s.limit !== 'number') continue
      const values = [...s.quiet, ...s.busy]
      const p = predictionRange(values)
      const where = `${notebook} "${name}": line ${s.limit}, ${values.length} runs ${Math.min(...values)}-${Math.max(...values)}`
      if (!p) {
        short.push(where)
        continue
      }
      // The line is on the side of the values it keeps out: at or below them (atLeast), above them (below).
      const atLeast = values.filter((v) => v >= s.limit).length >= values.length / 2
      const tenfold = s.limit > 0 && values.every((v) => v > 0 && (atLeast ? v >= FAR * s.limit : v * FAR <= s.limit))
      if (!tenfold && (atLeast ? p.low <= s.limit : p.high >= s.limit))
        inside.push(
          `${where}, predicted ${p.low.toPrecision(3)}-${p.high.toPrecision(3)} (${atLeast ? 'at least' : 'below'})`,
        )
    }
  return { inside, short }
}

const entry = (limit, quiet, busy = []) => ({ quick: { quiet, busy, measured: '2026-12-05', limit } })

test('a line inside the prediction of its runs is found; one beyond it, or without a line, is not', (t) => {
  const { inside, short } = linesInsidePrediction({
    notebooks: {
      '99-test': {
        'far above its line': entry(2, [10, 11, 12, 9, 10.5], [8, 13]),
        'just above its line': entry(8, [10, 11, 12, 9, 10.5], [8.5, 13]),
        'far below its line': entry(50, [10, 11, 12, 9, 10.5]),
        'two clusters, tenfold above the line': entry(1, [500, 800, 250], [12, 160]),
        'two clusters, under tenfold': entry(1.3, [500, 800, 250], [12, 160]),
        'just below its line': entry(14, [10, 11, 12, 9, 10.5]),
        'no line recorded': { quick: { quiet: [1, 2, 3, 4, 5], busy: [], measured: '2026-12-05' } },
        'three runs': entry(1, [3, 4, 5]),
      },
    },
  })
  t.assert.deepStrictEqual(
    inside.map((l) => l.split('"')[1]),
    ['just above its line', 'two clusters, under tenfold', 'just below its line'],
  )
  t.assert.match(inside[0], /line 8, 7 runs 8.5-13, predicted [\d.]+-[\d.]+ \(at least\)/)
  t.assert.deepStrictEqual(short, ['99-test "three runs": line 1, 3 runs 3-5'])
})

test('every recorded line lies beyond the 99 % prediction of its runs, quiet and busy together', (t) => {
  const spreads = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'notebooks', 'spreads.json'), 'utf8'))
  const { inside, short } = linesInsidePrediction(spreads)
  if (short.length) t.diagnostic(`too few runs to predict from (make spreads):\n${short.join('\n')}`)
  t.assert.deepStrictEqual(inside, [], `lines inside the prediction of their runs:\n${inside.join('\n')}`)
})
