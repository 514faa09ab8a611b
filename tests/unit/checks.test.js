'use strict'
// A notebook's checks cell beside the spreads its thresholds were set from (prose/checks.ts, core/spreads.ts):
// the spread is read from a data file, printed after each threshold, and a run outside it is marked; the
// figures of every check are kept for make spreads. A temporary spreads file and results folder stand in.
// Pinning is off here (WORKBOOK_PIN=0, as on a machine without taskset), so the spreads are those of
// unpinned runs, kept apart from the pinned ones under "quick-unpinned".
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { after, test } = require('node:test')

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-checks-'))
process.env.WORKBOOK_RESULTS_DIR = path.join(dir, 'results')
process.env.WORKBOOK_SPREADS_FILE = path.join(dir, 'spreads.json')
process.env.WORKBOOK_PROFILE = 'quick'
process.env.WORKBOOK_PIN = '0'
const { internal } = require('./helpers')
const { checklist } = internal('prose/checks')

fs.writeFileSync(
  process.env.WORKBOOK_SPREADS_FILE,
  JSON.stringify({
    about: 'test',
    notebooks: {
      '99-test': {
        'pool over blocked': {
          quick: { quiet: [99], busy: [], measured: '2026-11-28' }, // pinned runs: not this run's spread
          'quick-unpinned': { quiet: [2.5, 25.1], busy: [15], measured: '2026-11-28' },
        },
        'accepted p99': { 'quick-unpinned': { quiet: [25], busy: [], measured: '2026-11-28' } },
        'a pinned check': { quick: { quiet: [3], busy: [], measured: '2026-11-28' } },
        'ten runs': {
          'quick-unpinned': { quiet: [10, 11, 12, 9, 10.5, 11.5], busy: [8, 13, 10, 11], measured: '2026-12-05' },
        },
        'a difference': { 'quick-unpinned': { quiet: [-2, 0, 1, -1, 2], busy: [], measured: '2026-12-05' } },
        'close runs': { 'quick-unpinned': { quiet: [25.01, 25.03], busy: [], measured: '2026-11-29' } },
        elsewhere: {
          'quick-unpinned': {
            quiet: [1.2, 1.4],
            busy: [1.3],
            measured: '2026-11-29',
            machine: 'a 64-core box',
            limit: 1.1,
          },
        },
      },
    },
  }),
)

after(() => fs.rmSync(dir, { recursive: true, force: true }))

function quietly(fn) {
  const log = console.log
  console.log = () => {}
  try {
    return fn()
  } finally {
    console.log = log
  }
}

test('a measured spread whose ends read the same is printed with the digits that tell them apart', (t) => {
  const c = checklist('99-test').below('close runs', 25.02, 50, 'ms')
  t.assert.deepStrictEqual(c.passed, [
    'close runs: 25.0 ms, below 50 ms; measured 25.01 ms–25.03 ms in 2 quick unpinned runs (2 quiet, 0 busy)',
  ])
})

test('a threshold is printed with the spread it was set from (unpinned runs here), and a run beyond a few runs says they are too few', (t) => {
  const c = checklist('99-test')
    .atLeast('pool over blocked', 20, 2)
    .atLeast('pool over blocked', 40, 2)
    .atLeast('pool over blocked', 25.14, 2) // above 25.1, but printed as 25.1x: in the range as it reads
    .atLeast('pool over blocked', 2.494, 2) // below 2.50, but printed as 2.49x: outside
    .below('accepted p99', 25, 50, 'ms')
    .atLeast('a check never measured', 3, 1)
    .atLeast('a pinned check', 3, 1)
  t.assert.deepStrictEqual(c.passed, [
    'pool over blocked: 20.0x, at least 2x; measured 2.50x–25.1x in 3 quick unpinned runs (2 quiet, 1 busy)',
    'pool over blocked: 40.0x, at least 2x; measured 2.50x–25.1x in 3 quick unpinned runs (2 quiet, 1 busy); this run is above all 3 runs, by 1.59x: further from its line than any run measured; too few runs to predict from (make spreads)',
    'pool over blocked: 25.1x, at least 2x; measured 2.50x–25.1x in 3 quick unpinned runs (2 quiet, 1 busy)',
    'pool over blocked: 2.49x, at least 2x; measured 2.50x–25.1x in 3 quick unpinned runs (2 quiet, 1 busy); this run is below all 3 runs, by 0.24 %: nearer its line than any run measured; too few runs to predict from (make spreads)',
    'accepted p99: 25 ms, below 50 ms; measured 25 ms in one quick unpinned run (quiet)',
    'a check never measured: 3.00x, at least 1x; no measured spread for quick unpinned runs yet (make spreads)',
    'a pinned check: 3.00x, at least 1x; no measured spread for quick unpinned runs yet (make spreads)',
  ])
  quietly(() => c.done())
  const saved = JSON.parse(fs.readFileSync(path.join(dir, 'results', '99-test.checks.json'), 'utf8'))
  t.assert.strictEqual(saved.data.profile, 'quick-unpinned')
  t.assert.match(saved.data.machine, /, \d+ cores$/)
  t.assert.deepStrictEqual(
    saved.data.checks.map((r) => [r.name, r.kind, r.value, r.limit, r.passed]),
    [
      ['pool over blocked', 'atLeast', 20, 2, true],
      ['pool over blocked', 'atLeast', 40, 2, true],
      ['pool over blocked', 'atLeast', 25.14, 2, true],
      ['pool over blocked', 'atLeast', 2.494, 2, true],
      ['accepted p99', 'below', 25, 50, true],
      ['a check never measured', 'atLeast', 3, 1, true],
      ['a pinned check', 'atLeast', 3, 1, true],
    ],
  )
})

test('a run beyond the spread says what was unusual: which side, by how much, another machine, another line', (t) => {
  const c = checklist('99-test')
    .atLeast('elsewhere', 1.05, 1)
    .atLeast('elsewhere', 1.3, 1.1)
    .below('accepted p99', 40, 50, 'ms')
  t.assert.deepStrictEqual(
    [...c.passed],
    [
      'elsewhere: 1.05x, at least 1x; measured 1.20x–1.40x in 3 quick unpinned runs (2 quiet, 1 busy); this run is below all 3 runs, by 1.14x: nearer its line than any run measured; too few runs to predict from (make spreads); the spread was measured on a 64-core box, not this machine; the spread was measured when the line was 1.10x',
      'elsewhere: 1.30x, at least 1.1x; measured 1.20x–1.40x in 3 quick unpinned runs (2 quiet, 1 busy) (the spread was measured on a 64-core box, not this machine)',
      'accepted p99: 40 ms, below 50 ms; measured 25 ms in one quick unpinned run (quiet); this run is above the one run, by 1.60x: nearer its line than any run measured; too few runs to predict from (make spreads)',
    ],
  )
})

test('from five runs on, outside means beyond the 99 % prediction they make, not beyond their range', (t) => {
  const c = checklist('99-test')
    .atLeast('ten runs', 10, 2) // inside the range
    .atLeast('ten runs', 14, 2) // above all ten, inside the prediction
    .atLeast('ten runs', 30, 2) // beyond the prediction, away from the line
    .atLeast('ten runs', 5, 2) // beyond the prediction, towards the line
    .atLeast('ten runs', 6.2, 2) // just beyond it: by a percentage, which a factor (1.05x) would blur
    .below('a difference', 9, 10, 'ms') // values at and below 0: amounts as differences, not factors
  t.assert.deepStrictEqual(
    [...c.passed],
    [
      'ten runs: 10.0x, at least 2x; measured 8.00x–13.0x in 10 quick unpinned runs (6 quiet, 4 busy)',
      'ten runs: 14.0x, at least 2x; measured 8.00x–13.0x in 10 quick unpinned runs (6 quiet, 4 busy); this run is above all 10, inside the 6.50x–17.0x they predict for 99 runs in 100',
      'ten runs: 30.0x, at least 2x; measured 8.00x–13.0x in 10 quick unpinned runs (6 quiet, 4 busy): this run is outside the measured spread, above the 6.50x–17.0x those 10 runs predict for 99 runs in 100, by 1.77x: further from its line than any run measured',
      'ten runs: 5.00x, at least 2x; measured 8.00x–13.0x in 10 quick unpinned runs (6 quiet, 4 busy): this run is outside the measured spread, below the 6.50x–17.0x those 10 runs predict for 99 runs in 100, by 1.30x: nearer its line than any run measured',
      'ten runs: 6.20x, at least 2x; measured 8.00x–13.0x in 10 quick unpinned runs (6 quiet, 4 busy): this run is outside the measured spread, below the 6.50x–17.0x those 10 runs predict for 99 runs in 100, by 4.9 %: nearer its line than any run measured',
      'a difference: 9 ms, below 10 ms; measured -2 ms–2 ms in 5 quick unpinned runs (5 quiet, 0 busy): this run is outside the measured spread, above the -7.97 ms–7.97 ms those 5 runs predict for 99 runs in 100, by 1.03 ms: nearer its line than any run measured',
    ],
  )
})

test('a failed run keeps its figures too, and a checklist without a notebook prints no spread and keeps nothing', (t) => {
  const c = checklist('99-test').atLeast('pool over blocked', 1.5, 2)
  t.assert.throws(
    () => quietly(() => c.done()),
    /1 check\(s\) failed:\npool over blocked: 1\.50x, at least 2x; measured/,
  )
  const saved = JSON.parse(fs.readFileSync(path.join(dir, 'results', '99-test.checks.json'), 'utf8'))
  t.assert.deepStrictEqual(
    saved.data.checks.map((r) => [r.value, r.passed]),
    [[1.5, false]],
  )
  const plain = checklist().atLeast('pool over blocked', 20, 2)
  t.assert.deepStrictEqual(plain.passed, ['pool over blocked: 20.0x, at least 2x'])
})
