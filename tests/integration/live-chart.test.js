'use strict'
// Integration (make test-integration): the harness against live servers.
const { test } = require('node:test')
const { internal, secondSamples } = require('../unit/helpers')

test('the live chart draws SVG frames off the main thread while a test runs, then one frame with PNG, and nothing after it', async (t) => {
  const { LiveChart, LIVE_INTERVAL_MS } = internal('charts/live')
  const bundles = []
  const live = new LiveChart('live test', true, { update: (b) => bundles.push(b) })
  await live.ready() // the renderer thread has started and drawn a frame of its own
  const samples = secondSamples(['warm-up', 'run 1'], 3)
  live.update(samples.slice(0, 2), 'warm-up (discarded)')
  live.update(samples.slice(0, 3), 'warm-up (discarded)') // too soon after the first: skipped
  const { waitUntil } = require('../unit/helpers')
  t.assert.ok(await waitUntil(() => bundles.length === 1, 10_000), 'no frame from the renderer thread')
  t.assert.deepStrictEqual(Object.keys(bundles[0]).sort(), ['image/svg+xml', 'text/plain'])
  t.assert.match(
    bundles[0]['image/svg+xml'],
    /warm-up \(discarded\) — last second: 39,900 req\/s, p99 1\.10 ms, generator 50 %/,
  )
  t.assert.ok(LIVE_INTERVAL_MS >= 2000)
  await new Promise((resolve) => setTimeout(resolve, LIVE_INTERVAL_MS))
  live.update(samples, 'run 1 of 1') // due: drawn in the thread, but lands after finish()
  live.finish(samples, 'done')
  await new Promise((resolve) => setTimeout(resolve, 1500))
  t.assert.strictEqual(bundles.length, 2)
  t.assert.ok(bundles[1]['image/png'] && /done — last second/.test(bundles[1]['image/svg+xml']))
})
