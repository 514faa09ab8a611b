'use strict'
// The samples of harness/samples/ are documentation that runs: each must at least parse against the
// current API, and the quick one is run end to end (the others load for longer or run clinic).
const { test } = require('node:test')
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const h = require('@workbook/harness')

const root = path.join(__dirname, '..', '..')
const dir = path.join(root, 'harness', 'samples')
const samples = fs.readdirSync(dir).filter((f) => f.endsWith('.js'))

test('every sample parses, and every wb.name it calls is exported', (t) => {
  t.assert.ok(samples.length >= 5)
  for (const f of samples) {
    execFileSync(process.execPath, ['--check', path.join(dir, f)])
    const called = [...fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/\bwb\.(\w+)/g)].map((m) => m[1])
    for (const name of called) t.assert.ok(name in h, `${f} calls wb.${name}, which @workbook/harness does not export`)
  }
})
