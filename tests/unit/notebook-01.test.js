'use strict'
// notebooks/01-slow-etag-server.ts: the article's targets and doctor's handles, set beside a run.
const path = require('node:path')
const { test } = require('node:test')
const here = require(path.join(__dirname, '..', '..', 'notebooks', '01-slow-etag-server.ts'))

test('changedLines counts the lines a line-for-line edit changed: the fix is one line of util.js', (t) => {
  t.assert.deepStrictEqual(here.changedLines('etag-slow/util.js', 'etag-fixed/util.js'), { changed: 1, of: 61 })
  t.assert.throws(() => here.changedLines('etag-slow/util.js', 'etag-optimised/util.js'), /not a line-for-line edit/)
})

test("handleCounts and handleRows: the article's 103 handles, part by part, beside a run's", (t) => {
  t.assert.deepStrictEqual(here.handleCounts([{ handles: 3 }, { handles: 44 }, { handles: 50 }]), { idle: 3, peak: 50 })
  t.assert.throws(() => here.handleCounts([]), /no samples/)
  t.assert.strictEqual(here.handlesBeforeLoad(), 3)
  const rows = here.handleRows({ idle: 3, peak: 50 }, 100)
  t.assert.deepStrictEqual(
    rows.map((r) => [r["the article's doctor"], r["this run's, at its peak"]]),
    [
      [100, 47],
      [3, 3],
      [103, 50],
    ],
  )
  t.assert.match(rows[1].handles, /^stdout, stderr, the server: open before the load$/)
})

test("targetRows: each of the article's targets, met or not by what the fix reached", (t) => {
  const rows = here.targetRows({ times: 51.3, reqPerSec: 3_900 })
  t.assert.deepStrictEqual(
    rows.map((r) => [r["the article's target"], r['the fix, this run'], r.met]),
    [
      ['10x', '51.3x', 'yes'],
      ['4,000 req/s', '3,900 req/s', 'no'],
      ['2x when the servers cost twice the budget', '51.3x', 'yes'],
    ],
  )
})
