'use strict'
const { test } = require('node:test')
const { isLoopbackHost, assertLoopback } = require('@workbook/harness')

test('loopback hosts are recognised, everything else is not', (t) => {
  for (const host of ['127.0.0.1', '127.9.8.7', 'localhost', 'LOCALHOST', '[::1]', '::1', 'app.localhost', '::ffff:127.0.0.1']) {
    t.assert.strictEqual(isLoopbackHost(host), true, host)
  }
  for (const host of ['10.0.0.1', '192.168.1.10', '172.16.0.1', '8.8.8.8', 'example.com', '::2', '0.0.0.0', 'localhost.example.com', '128.0.0.1']) {
    t.assert.strictEqual(isLoopbackHost(host), false, host)
  }
})

test('assertLoopback refuses non-loopback and non-http targets with a clear message', (t) => {
  t.assert.throws(() => assertLoopback('http://10.1.2.3:8080/'), /only targets loopback/)
  t.assert.throws(() => assertLoopback('http://example.com/'), /only targets loopback/)
  t.assert.throws(() => assertLoopback('ftp://127.0.0.1/'), /only http/)
  t.assert.throws(() => assertLoopback('not a url'), /not a valid URL/)
  t.assert.strictEqual(assertLoopback('http://127.0.0.1:3000/x').port, '3000')
})
