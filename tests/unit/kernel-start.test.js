'use strict'
// The tslab kernel binds iopub before its other sockets (scripts/tslab-iopub-first.cjs): a request
// answered on iopub while iopub was still binding left a kernel deaf at start (EBUSY).
const { test } = require('node:test')
const path = require('node:path')

const root = path.join(__dirname, '..', '..')

test('the kernel preload binds iopub first: shell and control wait until iopub is bound', async (t) => {
  const jupyter = require(path.join(root, 'node_modules', 'tslab', 'dist', 'jupyter.js'))
  const original = jupyter.ZmqServer.prototype.bindSocket
  t.after(() => {
    jupyter.ZmqServer.prototype.bindSocket = original
  })
  const order = []
  let iopubDone = () => {}
  // tslab's bind, replaced by one whose iopub bind takes a while
  jupyter.ZmqServer.prototype.bindSocket = (sock) => {
    order.push(`bind ${sock.name}`)
    if (sock.name !== 'iopub') return Promise.resolve(order.push(`${sock.name} bound`))
    return new Promise((resolve) => {
      iopubDone = () => resolve(order.push('iopub bound'))
    })
  }
  delete require.cache[require.resolve(path.join(root, 'scripts', 'tslab-iopub-first.cjs'))]
  require(path.join(root, 'scripts', 'tslab-iopub-first.cjs'))
  const server = Object.create(jupyter.ZmqServer.prototype)
  for (const name of ['iopub', 'shell', 'control']) server[name] = { name }
  // as tslab's init() calls it: all at once, iopub first
  const all = Promise.all(['iopub', 'shell', 'control'].map((n) => server.bindSocket(server[n], 1)))
  await new Promise((resolve) => setImmediate(resolve))
  t.assert.deepStrictEqual(order, ['bind iopub'], 'shell and control must not bind before iopub is bound')
  iopubDone()
  await all
  t.assert.deepStrictEqual(order.slice(0, 2), ['bind iopub', 'iopub bound'])
  t.assert.deepStrictEqual(order.slice(2).sort(), ['bind control', 'bind shell', 'control bound', 'shell bound'])
})

test('the kernelspec starts tslab with the preload', (t) => {
  const fs = require('node:fs')
  const spec = path.join(root, '.venv', 'share', 'jupyter', 'kernels', 'tslab', 'kernel.json')
  if (!fs.existsSync(spec)) return t.skip('no kernelspec here (make setup writes it)')
  const argv = JSON.parse(fs.readFileSync(spec, 'utf8')).argv
  t.assert.deepStrictEqual(argv.slice(1, 3), ['--require', path.join(root, 'scripts', 'tslab-iopub-first.cjs')])
})
