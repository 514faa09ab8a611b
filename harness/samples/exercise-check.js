// Check the reference solution of exercise 04 against its starting point, as the exercise
// notebook's last cell does, and print the verdict. Takes ~25 s with WORKBOOK_PROFILE=quick.
// Run: WORKBOOK_PROFILE=quick node_modules/node/bin/node harness/samples/exercise-check.js
const path = require('node:path')
const ex = require('@workbook/harness/exercises')
const wb = require('@workbook/harness')

const solution = path.join(wb.repoRoot, 'solutions', '04-hot-path')
ex.checkExercise('04-hot-path', { submissionDir: solution }).then((result) => {
  ex.printCheck(result)
  console.log(
    JSON.stringify({
      pass: result.pass,
      ratio: result.ratio,
      stage: result.details.stage,
      rounds: { start: result.details.baseline, yours: result.details.submission },
    }),
  )
})
