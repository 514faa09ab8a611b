'use strict'
// saveResults / loadResults round trip, in a child process so that WORKBOOK_RESULTS_DIR (read when
// the harness loads) points at a temporary folder.
const { test } = require('node:test')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')

test('loadResults reads back what saveResults wrote, null when nothing was saved, and refuses a path', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-results-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const code = `
    const h = require('@workbook/harness');
    const hi = require('@workbook/harness/internal');
    h.saveResults('98-roundtrip.ipynb', { answer: 42 });
    const back = hi.loadResults('98-roundtrip');
    const errors = ['../escape', '..', 'a/b', ''].map((name) => { try { hi.loadResults(name); return 'no error' } catch (e) { return e.message } });
    process.stdout.write(JSON.stringify({ back, missing: hi.loadResults('97-never-saved'), errors }));`
  const out = JSON.parse(
    execFileSync(process.execPath, ['-e', code], {
      env: { ...process.env, WORKBOOK_RESULTS_DIR: dir },
      cwd: path.join(__dirname, '..', '..'),
    }).toString(),
  )
  t.assert.deepStrictEqual(
    fs.readdirSync(dir),
    ['98-roundtrip.json'],
    'the .ipynb suffix is dropped, no temporary file is left',
  )
  t.assert.strictEqual(out.back.data.answer, 42)
  t.assert.strictEqual(out.back.fingerprint.node, process.version)
  t.assert.strictEqual(out.missing, null)
  for (const e of out.errors) t.assert.match(e, /^loadResults: notebook name must be a plain file name/)
})

test('a relative WORKBOOK_RESULTS_DIR is taken from the workbook folder, wherever the process runs', () => {
  const root = path.resolve(__dirname, '..', '..')
  const code = "process.stdout.write(require('@workbook/harness/internal').resultsDir)"
  const out = execFileSync(process.execPath, ['-e', code], {
    cwd: path.join(root, 'notebooks'), // where a kernel runs
    env: { ...process.env, WORKBOOK_RESULTS_DIR: 'build/elsewhere/results' },
    encoding: 'utf8',
  })
  require('node:assert').strictEqual(out, path.join(root, 'build', 'elsewhere', 'results'))
})
