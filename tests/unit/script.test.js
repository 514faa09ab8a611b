'use strict'
// measureScript: a script in a child process, its last JSON line, what it printed and the command.
const { test } = require('node:test')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const h = require('@workbook/harness')

function script(t, body) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-script-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'measure.js')
  fs.writeFileSync(file, body)
  return file
}

test('measureScript returns the last JSON line, what the script printed and the command that repeats it', async (t) => {
  const file = script(
    t,
    'console.log("warming up"); console.error("a note"); console.log(JSON.stringify({ n: process.argv[2], e: process.env.X }))',
  )
  const run = await h.measureScript(file, { args: ['7'], nodeArgs: ['--expose-gc'], env: { X: 'y' }, pin: false })
  t.assert.deepStrictEqual(run.result, { n: '7', e: 'y' })
  t.assert.match(run.stdout, /^warming up\n/)
  t.assert.match(run.stderr, /a note/)
  t.assert.deepStrictEqual(run.nodeArgs, ['--expose-gc'])
  t.assert.strictEqual(run.command, `X=y node_modules/node/bin/node --expose-gc ${file} 7`)
  t.assert.match(run.pinned, /^not pinned/)
})

test('measureScript takes a path under apps/ as the notebooks give it, and prints it from the workbook folder', async (t) => {
  const run = await h.measureScript('memory-kinds/measure.js', { nodeArgs: ['--expose-gc'], pin: false })
  t.assert.strictEqual(run.file, 'memory-kinds/measure.js')
  t.assert.strictEqual(run.command, 'node_modules/node/bin/node --expose-gc apps/memory-kinds/measure.js')
  t.assert.strictEqual(Object.keys(run.result).length, 3, JSON.stringify(run.result))
})

test('measureScript with json: false leaves the output to its reader; without it, no JSON line is an error', async (t) => {
  const file = script(t, 'console.log("just text")')
  const run = await h.measureScript(file, { json: false, pin: false })
  t.assert.strictEqual(run.result, undefined)
  t.assert.strictEqual(run.stdout, 'just text\n')
  await t.assert.rejects(h.measureScript(file, { pin: false }), (err) => {
    t.assert.strictEqual(err.code, 'WB_NO_REPORT')
    t.assert.match(err.message, /measure\.js printed no JSON line: "just text\\n"/)
    return true
  })
})

test('measureScript names the script, its stderr and the command when it fails, and stops it past its limit', async (t) => {
  const failing = script(t, 'console.error("it broke"); process.exit(3)')
  await t.assert.rejects(h.measureScript(failing, { args: ['a'], pin: false }), (err) => {
    t.assert.strictEqual(err.code, 'WB_NO_REPORT')
    t.assert.match(err.message, /measure\.js a failed \(3\)/)
    t.assert.match(err.stderr, /it broke/)
    t.assert.match(err.hint, /node .*measure\.js a$/)
    return true
  })
  const slow = script(t, 'setTimeout(() => {}, 10000)')
  await t.assert.rejects(h.measureScript(slow, { timeoutMs: 200, pin: false }), (err) => {
    t.assert.strictEqual(err.code, 'WB_TIMEOUT')
    t.assert.match(err.message, /did not finish within 200 ms/)
    return true
  })
  t.assert.throws(() => h.measureScript(slow, { timeoutMs: 0 }), /timeoutMs must be > 0/)
})
