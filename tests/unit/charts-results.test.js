'use strict'
const { test } = require('node:test')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

test('charts render to SVG with a title, to PNG, and to a text fallback', (t) => {
  const h = require('@workbook/harness')
  const { toPng } = require('@workbook/harness/dist/render')
  const chart = h.barsWithSpread([{ label: 'a', median: 10, min: 8, max: 12 }, { label: 'b', median: 20, min: 19, max: 25 }], { title: 'Two bars', unit: 'req/s' })
  t.assert.match(chart.svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
  t.assert.match(chart.svg, /Two bars/)
  t.assert.match(chart.text, /Two bars[\s\S]*b\s+20\s+19\s+25/)
  const png = toPng(chart.svg)
  t.assert.deepStrictEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')])
  t.assert.throws(() => h.plot({ marks: [], title: 'figure' }, { title: 'x' }), /returned a <figure>/)
})

test('saveResults writes results/<notebook>.json with the fingerprint', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-results-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const code = `
    const h = require('@workbook/harness');
    const file = h.saveResults('99-test', { answer: 42 });
    process.stdout.write(file);
    try { h.saveResults('../escape', {}) } catch (e) { process.stdout.write('\\n' + e.message) }`
  const out = require('node:child_process').execFileSync(process.execPath, ['-e', code], { env: { ...process.env, WORKBOOK_RESULTS_DIR: dir }, cwd: path.join(__dirname, '..', '..') }).toString().split('\n')
  t.assert.strictEqual(out[0], path.join(dir, '99-test.json'))
  const saved = JSON.parse(fs.readFileSync(out[0], 'utf8'))
  t.assert.strictEqual(saved.data.answer, 42)
  t.assert.strictEqual(saved.fingerprint.node, process.version)
  t.assert.match(out[1], /must be a plain file name/)
})
