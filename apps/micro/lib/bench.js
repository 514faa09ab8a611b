'use strict'
// The micro-benchmark runner of notebook 05, on tinybench. A benchmark file adds tasks and runs:
//
//   const { suite } = require('./lib/bench')
//   suite('serialise')
//     .add('JSON.stringify', (i) => JSON.stringify(items[i & 63]))
//     .add('template string', (i) => templated(items[i & 63]))
//     .add('read a field', fresh(readX), { input: objects }) // called as readX(i, objects)
//     .run()
//
// and prints ONE JSON line on stdout: every task's ops/s with its margin of error, for the harness's
// microbench() to read. What it does against the ways a micro-benchmark lies:
//   - each task's function is called in BATCHES of n calls timed together (a single call of a few
//     nanoseconds is below what a clock can time), n chosen so that a batch lasts about 0.5 ms;
//   - each task gets its OWN batch loop, compiled from its own source, so the call site `fn(i)` sees
//     one function only: a loop shared by every task would see them all, and stop inlining any;
//   - every result is SUNK: stored in an array that escapes, so the JIT cannot drop work whose result
//     nobody reads (`{ sink: false }` turns that off, to show what happens without it);
//   - every call gets a different argument (`i`, the call's index), so the JIT cannot fold a result
//     computed from constants once and for all (`{ input }` is passed as a second argument, unchanged);
//   - an empty task, `(i) => i`, is measured first: the cost of the loop and the sink themselves. A task
//     measured at less than 1.5x that floor did (almost) nothing the loop did not: it is flagged `suspect`.
// Warm-up (a first run of the task, the batch-size search, then tinybench's) runs before any sample
// is kept. Each batch is timed by the CPU time of this process (process.cpuUsage: user + system, read
// to the microsecond), not by a wall clock: on a shared machine a wall clock also counts the time
// other processes held the core. It includes what V8's helper threads (GC, compilers) did meanwhile.
//
// Settings, from the environment (the harness sets them from the workbook's profile):
//   MICROBENCH_TIME_MS     measured time per task (default 500)
//   MICROBENCH_WARMUP_MS   tinybench's warm-up time per task (default 200)
const { Bench } = require('tinybench')

const TIME_MS = Number(process.env.MICROBENCH_TIME_MS || 500)
const WARMUP_MS = Number(process.env.MICROBENCH_WARMUP_MS || 200)
const BATCH_MS = 0.5
// The process's CPU time in ms, read to the microsecond: a batch of 0.5 ms is timed to 0.2 %.
// (process.threadCpuUsage would leave the helper threads out, but moves in steps of a scheduler tick, 4 ms.)
function now() {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}
const SUSPECT_BELOW_FLOOR = 1.5

let copies = 0

/**
 * A copy of `fn` with its own inline caches and feedback: V8 keeps what a function has seen per
 * function literal, so two tasks that call the same function would teach it each other's shapes.
 * `fn` must not use variables from around it (pass what it needs as arguments).
 */
function fresh(fn) {
  return new Function(`return (${fn.toString()}) // copy ${++copies}`)()
}

/** The batch loop of one task: its own source (a unique comment), so its call site sees one function. */
function batchLoop(name, sink) {
  const body = sink
    ? 'for (let i = 0; i < n; i++) out[i & 63] = fn(i, input)'
    : 'for (let i = 0; i < n; i++) fn(i, input)'
  return new Function('fn', 'input', 'out', 'n', `// batch loop ${++copies}: ${JSON.stringify(name)}\n${body}`)
}

/**
 * Run the task for a while (so that the JIT compiles it), then double n until one batch lasts
 * BATCH_MS: a batch sized while the code was still interpreted would be far too short once compiled.
 */
function batchSize(loop, fn, input, out) {
  const until = now() + Math.min(WARMUP_MS, 50)
  while (now() < until) loop(fn, input, out, 64)
  let n = 64
  for (;;) {
    let fastest = Infinity // of three batches: a GC pause in one must not end the search early
    for (let k = 0; k < 3; k++) {
      const t = now()
      loop(fn, input, out, n)
      fastest = Math.min(fastest, now() - t)
    }
    if (fastest >= BATCH_MS || n >= 2 ** 24) return n
    n *= 2
  }
}

async function measure({ name, fn, input, sink, group }) {
  const loop = batchLoop(name, sink)
  const out = new Array(64).fill(0)
  const n = batchSize(loop, fn, input, out)
  const bench = new Bench({ time: TIME_MS, warmupTime: WARMUP_MS, iterations: 10, warmupIterations: 5 })
  bench.add(
    name,
    () => {
      const t = now()
      loop(fn, input, out, n)
      const ms = now() - t
      return { overriddenDuration: ms / n, overriddenIterationCost: ms }
    },
    { async: false },
  )
  await bench.run()
  const r = bench.tasks[0].result
  if (r.state !== 'completed') throw new Error(`task ${JSON.stringify(name)}: ${r.error?.stack ?? r.state}`)
  const meanMs = r.latency.mean
  return {
    name,
    group: group ?? null,
    sunk: sink,
    opsPerSec: 1000 / meanMs,
    rme: r.latency.rme,
    meanNs: meanMs * 1e6,
    samples: r.latency.samplesCount,
    batch: n,
  }
}

/** A suite of tasks: add(name, fn(i, input), { input, sink = true, group }) then run(). */
function suite(name) {
  const tasks = []
  const api = {
    add(taskName, fn, { input, sink = true, group } = {}) {
      if (typeof fn !== 'function') throw new TypeError(`task ${JSON.stringify(taskName)}: not a function`)
      tasks.push({ name: taskName, fn, input, sink, group })
      return api
    },
    async run() {
      try {
        const floor = await measure({ name: '(empty loop)', fn: (i) => i, sink: true, group: 'floor' })
        const results = []
        for (const t of tasks) {
          const r = await measure(t)
          results.push({ ...r, suspect: r.meanNs < floor.meanNs * SUSPECT_BELOW_FLOOR })
        }
        const report = {
          microbench: name,
          runtime: `Node ${process.versions.node}`,
          v8: process.versions.v8,
          clock: 'process CPU time',
          timeMs: TIME_MS,
          warmupMs: WARMUP_MS,
          floorNs: floor.meanNs,
          suspectBelow: SUSPECT_BELOW_FLOOR,
          tasks: results,
        }
        process.stdout.write(`${JSON.stringify(report)}\n`)
      } catch (err) {
        process.stderr.write(`${err?.stack ?? err}\n`)
        process.exitCode = 1
      }
    },
  }
  return api
}

module.exports = { suite, fresh }
