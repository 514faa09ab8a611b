'use strict'
const { test } = require('node:test')
const { isLoopbackHost, assertLoopback, loopbackUrl } = require('./helpers').internal('core/loopback')

test('loopback hosts are recognised, everything else is not', (t) => {
  for (const host of ['127.0.0.1', '127.9.8.7', 'localhost', 'LOCALHOST', '[::1]', '::1', '::ffff:127.0.0.1']) {
    t.assert.strictEqual(isLoopbackHost(host), true, host)
  }
  for (const host of [
    '10.0.0.1',
    '192.168.1.10',
    '172.16.0.1',
    '8.8.8.8',
    'example.com',
    '::2',
    '0.0.0.0',
    'localhost.example.com',
    '128.0.0.1',
    'app.localhost',
  ]) {
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

test('loopbackUrl resolves a path on a loopback base and refuses one that leads off it', (t) => {
  t.assert.strictEqual(loopbackUrl('http://127.0.0.1:3000', '/a?b=1').href, 'http://127.0.0.1:3000/a?b=1')
  t.assert.strictEqual(loopbackUrl('http://127.0.0.1:3000/', '@example.com/x').host, '127.0.0.1:3000') // a path, not userinfo
  t.assert.strictEqual(loopbackUrl('http://localhost:3000').pathname, '/')
  for (const path of [
    '//example.com/x',
    'http://10.0.0.1/',
    '\\\\example.com/x',
    '/\\example.com/',
    'https:\\\\example.com',
  ]) {
    t.assert.throws(() => loopbackUrl('http://127.0.0.1:3000', path), /refusing path .* only targets loopback/, path)
  }
  t.assert.throws(() => loopbackUrl('http://127.0.0.1:3000', 'ftp://127.0.0.1/'), /refusing path .*only http/)
  t.assert.throws(() => loopbackUrl('http://example.com', '/'), /only targets loopback/)
})
