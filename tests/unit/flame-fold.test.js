'use strict'
// foldFlame (harness/src/charts/flame-chart.ts): which frames a flame graph draws. Narrow towers and
// long chains of wrappers must not make the chart taller than a screen, and the subtitle must say
// what was left out.
const { test } = require('node:test')
const { internal } = require('./helpers')

const { foldFlame } = internal('charts/flame-chart')

/** One frame of the graph: depth (0 at the bottom) and its span as shares of the width. */
const frame = (name, depth, x0, x1) => ({
  name,
  file: 'apps/x/server.js',
  line: 1,
  category: 'user',
  depth,
  x0,
  x1,
  self: 0,
})

const flame = (rects) => ({
  unit: 'samples',
  total: 1000,
  idleShare: 0,
  durationMs: 1000,
  rects,
  hot: [],
  hottestUser: null,
  categories: {},
})

/** A tower: one frame per level from `from` up, each calling only the next, all as wide as `x0..x1`. */
const tower = (prefix, from, levels, x0, x1) =>
  Array.from({ length: levels }, (_, i) => frame(`${prefix}${i}`, from + i, x0, x1))

const names = (rects) => rects.map((r) => r.name)

test('frames narrower than 1 % are left out with what they call, and the height follows what is left', (t) => {
  // handler does the work (two halves of its width); a 0.5 % wide tower of 30 frames hangs off main
  const rects = [
    frame('main', 0, 0, 1),
    frame('handler', 1, 0, 0.99),
    frame('parse', 2, 0, 0.5),
    frame('render', 2, 0.5, 0.99),
    ...tower('deep', 1, 30, 0.99, 0.995),
  ]
  const folded = foldFlame(flame(rects))
  t.assert.deepStrictEqual(names(folded.rects).sort(), ['handler', 'main', 'parse', 'render'])
  t.assert.strictEqual(folded.depth, 3)
  t.assert.match(folded.folded, /frames narrower than 1 % of the width left out/)
  t.assert.match(folded.folded, /3 levels drawn of 31/)

  // a smaller minWidth keeps the tower, and the chart is as tall as it
  const kept = foldFlame(flame(rects), 0.001, 40, Number.POSITIVE_INFINITY)
  t.assert.ok(names(kept.rects).includes('deep29'))
  t.assert.strictEqual(kept.depth, 31)
  t.assert.doesNotMatch(kept.folded, /levels drawn of/)
})

test('a frame exactly 1 % wide is drawn; one a hair narrower is not', (t) => {
  const rects = [frame('main', 0, 0, 1), frame('edge', 1, 0, 0.01), frame('under', 1, 0.5, 0.5099)]
  t.assert.deepStrictEqual(names(foldFlame(flame(rects)).rects), ['main', 'edge'])
})

test('a chain of more than 4 frames that only call the next is folded into one "⋯ N frames" box', (t) => {
  // main -> mw0 .. mw5 (middleware, each the whole width) -> route, which does two things
  const rects = [
    frame('main', 0, 0, 1),
    ...tower('mw', 1, 6, 0, 1),
    frame('route', 7, 0, 1),
    frame('query', 8, 0, 0.6),
    frame('serialize', 8, 0.6, 1),
  ]
  const { rects: drawn, depth, folded } = foldFlame(flame(rects))
  const box = drawn.find((r) => r.name.startsWith('⋯'))
  t.assert.ok(box, names(drawn).join(' '))
  t.assert.strictEqual(box.name, '⋯ 6 frames (mw0, mw1, mw2)')
  t.assert.deepStrictEqual([box.depth, box.x0, box.x1], [1, 0, 1])
  t.assert.strictEqual(box.file, '')
  t.assert.deepStrictEqual(
    drawn.map((r) => [r.name, r.depth]).filter(([n]) => !n.startsWith('⋯')),
    [
      ['main', 0],
      ['route', 2],
      ['query', 3],
      ['serialize', 3],
    ],
  )
  t.assert.strictEqual(depth, 4)
  t.assert.match(folded, /6 frames of call chains folded into "⋯" boxes/)
  t.assert.match(folded, /4 levels drawn of 9/)
  // no frame of the chain is drawn as well as folded
  t.assert.ok(!drawn.some((r) => /^mw\d$/.test(r.name)))
})

test('a short chain, or one broken by a frame that calls two things, is drawn in full', (t) => {
  // main -> mw0 .. mw2 -> route: 4 frames that only call the next (main and the middleware), not more than 4
  const short = [frame('main', 0, 0, 1), ...tower('mw', 1, 3, 0, 1), frame('route', 4, 0, 1), frame('q', 5, 0, 0.5)]
  const drawn = foldFlame(flame(short))
  t.assert.ok(!names(drawn.rects).some((n) => n.startsWith('⋯')), names(drawn.rects).join(' '))
  t.assert.strictEqual(drawn.depth, 6)
  t.assert.doesNotMatch(drawn.folded, /folded into/)

  // the same long chain, but one middleware calls two halves: no frame of it only calls the next for long
  const split = [
    frame('main', 0, 0, 1),
    ...tower('a', 1, 3, 0, 1),
    frame('split', 4, 0, 1),
    ...tower('left', 5, 3, 0, 0.5),
    ...tower('right', 5, 3, 0.5, 1),
  ]
  const notFolded = foldFlame(flame(split))
  t.assert.ok(!names(notFolded.rects).some((n) => n.startsWith('⋯')), names(notFolded.rects).join(' '))
  t.assert.strictEqual(notFolded.rects.length, split.length)

  // a child under 90 % of its caller's width is not a link of a chain either
  const narrowing = [
    frame('main', 0, 0, 1),
    ...Array.from({ length: 8 }, (_, i) => frame(`n${i}`, i + 1, 0, 0.8 ** (i + 1))),
  ]
  const kept = foldFlame(flame(narrowing))
  t.assert.strictEqual(kept.rects.length, narrowing.length)
  t.assert.doesNotMatch(kept.folded, /folded into/)

  // a frame that calls a wide frame and also a small one (drawn, 3 %) does not only call the next
  const busy = [frame('main', 0, 0, 1)]
  for (let i = 1; i <= 6; i++)
    busy.push(frame(`busy${i}`, i, 0, 1 - 0.03 * i), frame(`side${i}`, i, 1 - 0.03 * i, 1.03 - 0.03 * i))
  const busyDrawn = foldFlame(flame(busy))
  t.assert.ok(!names(busyDrawn.rects).some((n) => n.startsWith('⋯')), names(busyDrawn.rects).join(' '))
  t.assert.strictEqual(busyDrawn.rects.length, busy.length)

  // one more middleware makes 5: folded
  const five = [frame('main', 0, 0, 1), ...tower('mw', 1, 4, 0, 1), frame('route', 5, 0, 1), frame('q', 6, 0, 0.5)]
  t.assert.ok(names(foldFlame(flame(five)).rects).includes('⋯ 4 frames (mw0, mw1, mw2)'))

  // the chain length can be set: with 10, the six middleware frames stay
  const long = [frame('main', 0, 0, 1), ...tower('mw', 1, 6, 0, 1), frame('route', 7, 0, 1), frame('q', 8, 0, 0.5)]
  t.assert.ok(names(foldFlame(flame(long), 0.01, 40, 10).rects).includes('mw5'))
  t.assert.ok(!names(foldFlame(flame(long), 0.01, 40, 4).rects).includes('mw5'))
})

test('frames deeper than maxDepth are cut, and the subtitle says how many levels were drawn', (t) => {
  const deep = tower('f', 0, 10, 0, 1)
  const { rects, depth, folded } = foldFlame(flame(deep), 0.01, 4, Number.POSITIVE_INFINITY)
  t.assert.deepStrictEqual(names(rects), ['f0', 'f1', 'f2', 'f3'])
  t.assert.strictEqual(depth, 4)
  t.assert.match(folded, /below level 4 cut/)
  t.assert.match(folded, /4 levels drawn of 10/)
  // nothing is cut when the stack fits
  t.assert.doesNotMatch(foldFlame(flame(deep), 0.01, 10, Number.POSITIVE_INFINITY).folded, /cut/)
})

test('the subtitle counts every frame cut below maxDepth, not only the first of each cut stack', (t) => {
  const { folded } = foldFlame(flame(tower('f', 0, 10, 0, 1)), 0.01, 4, Number.POSITIVE_INFINITY)
  t.assert.match(folded, /\b6 frames below level 4 cut/)
})

test('a folded chain never draws below maxDepth', (t) => {
  // main splits in two; one half is a chain of 6 wrappers that ends in work with two children
  const rects = [
    frame('main', 0, 0, 1),
    frame('A', 1, 0, 0.5),
    frame('B', 1, 0.5, 1),
    ...tower('a', 2, 6, 0, 0.5),
    frame('work', 8, 0, 0.5),
    frame('w1', 9, 0, 0.25),
    frame('w2', 9, 0.25, 0.5),
  ]
  const { rects: drawn, depth } = foldFlame(flame(rects), 0.01, 3)
  t.assert.ok(depth <= 3, `drew ${depth} levels with maxDepth 3: ${drawn.map((r) => `${r.name}@${r.depth}`).join(' ')}`)
})
