'use strict'
// The memory line (tools/src/diagnose/memory.ts): its printed slope and the first and last readings it
// prints beside it must add up, or the line says what the rest is made of.
const { test } = require('node:test')
const { tool } = require('./helpers')
const { memoryTrend, memoryLines } = tool('diagnose/memory')
const { THRESHOLDS } = tool('diagnose/thresholds')
// What full collections left (MB), before the watch, after it, then a second apart with the profilers on.
const points = (heap) =>
  [0, 4, 4.2, 5.3, 6.4, 7.5].map((at, i) => ({
    at,
    served: i * 1000,
    heapMB: heap[i],
    externalMB: 1,
    profiling: i >= 2,
  }))

test("the memory line's slope and its endpoints add up: what the profilers' step and single readings make of the rest", (t) => {
  // 6 → 6.65 MB kept, a step of 0.58 MB when the profilers start: the slope is fitted either side of it
  const flat = points([6, 6.02, 6.6, 6.63, 6.65, 6.65])
  const m = memoryTrend(flat, THRESHOLDS)
  const text = memoryLines(m, () => '').join('\n')
  const said =
    /of the ([\d.]+) MB between the first and the last of the heap, the slope makes ([\d.]+) MB \(([\d.]+) MB\/s over ([\d.]+) s\): the other ([\d.]+) MB is the step the profilers' own memory makes/.exec(
      text,
    )
  t.assert.ok(said, text)
  const [between, grown, slope, seconds, rest] = said.slice(1).map(Number)
  t.assert.ok(Math.abs(grown + rest - between) < 0.01, text)
  t.assert.ok(Math.abs(slope * seconds - grown) < 0.01, text)
  t.assert.ok(Math.abs(between - 0.65) < 0.01, text)
  // a leak whose endpoints the slope explains: no such sentence
  const leak = points([6, 7.6, 8.2, 8.64, 9.08, 9.52])
  t.assert.doesNotMatch(memoryLines(memoryTrend(leak, THRESHOLDS), () => '').join('\n'), /the other/)
})
