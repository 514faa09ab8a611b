'use strict'
// Where memory lives, measured: process.memoryUsage() before and after holding 50 MB three ways
// (JavaScript objects on V8's heap; Buffers, whose bytes live outside it; a long string). Prints
// one JSON line: the change of rss, heapUsed, heapTotal, external and arrayBuffers, in MB, per kind.
const MB = 2 ** 20
const kinds = {
  'objects (50 MB of small objects)': () =>
    Array.from({ length: (50 * MB) / 64 }, (_, i) => ({ i, a: i + 1, b: i + 2 })),
  'Buffers (50 x 1 MB)': () => Array.from({ length: 50 }, () => Buffer.alloc(MB, 1)),
  'a string (50 MB)': () =>
    'x'
      .repeat(50 * MB)
      .split('')
      .join(''),
}
const usage = () => process.memoryUsage()
const delta = (after, before) =>
  Object.fromEntries(Object.keys(before).map((k) => [k, Math.round(((after[k] - before[k]) / MB) * 10) / 10]))
const holder = { kept: null }
// A full collection, then a turn of the event loop: the bytes of freed Buffers are returned after it.
const settle = async () => {
  global.gc()
  await new Promise((resolve) => setTimeout(resolve, 50))
  global.gc()
}

async function main() {
  const out = {}
  for (const [kind, make] of Object.entries(kinds)) {
    holder.kept = null
    await settle()
    const before = usage()
    holder.kept = make()
    await settle()
    out[kind] = delta(usage(), before)
  }
  process.stdout.write(`${JSON.stringify(out)}\n`)
}

main()
