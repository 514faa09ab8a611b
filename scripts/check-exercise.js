'use strict'
// Run one exercise's check and print it; with --out, also write the result as JSON. make grade runs
// this in a process of its own, with a hard timeout, once per learner and exercise; so does an
// exercise notebook's check cell (ex.checkExercise), which sets WORKBOOK_WATCH_STDIN=1: the check then
// stops, with its apps, when its stdin closes (the kernel stopped it, or died).
//
//   node scripts/check-exercise.js --exercise-dir exercises/04-hot-path [--submission-dir DIR] [--out result.json]
//   node scripts/check-exercise.js 04-hot-path --submission-dir solutions/04-hot-path
//
// Exit code: 0 pass, 1 fail, 2 usage.
const fs = require('node:fs')
const { parseArgs } = require('node:util')
const ex = require('@workbook/harness/exercises')
const internal = require('@workbook/harness/internal')

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'exercise-dir': { type: 'string' }, 'submission-dir': { type: 'string' }, out: { type: 'string' } },
})
const ref = positionals[0] ?? values['exercise-dir']
if (!ref) {
  process.stderr.write('usage: check-exercise.js (NAME | --exercise-dir DIR) [--submission-dir DIR] [--out FILE]\n')
  process.exit(2)
}

if (process.env.WORKBOOK_WATCH_STDIN === '1') process.stdin.on('end', () => process.exit(1)).resume()

internal.checkInProcess(ref, { exerciseDir: values['exercise-dir'], submissionDir: values['submission-dir'] }).then(
  (result) => {
    ex.printCheck(result)
    if (values.out) fs.writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`)
    process.exit(result.pass ? 0 : 1)
  },
  (err) => {
    process.stderr.write(`${err.stack}\n`)
    process.exit(1)
  },
)
