'use strict'
// Integration (make test-integration): the quick sample of harness/samples/ run end to end.
const { test } = require('node:test')
const { execFileSync } = require('node:child_process')
const path = require('node:path')

const root = path.join(__dirname, '..', '..')
const dir = path.join(root, 'harness', 'samples')

test('own-server.js starts a server file by hand, asks it, loads it and leaves nothing running', (t) => {
  const out = execFileSync(
    process.execPath,
    [path.join(dir, 'own-server.js'), 'notebooks/your-server/server.js', '/'],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    },
  )
  t.assert.match(out, /^your-server listens on http:\/\/127\.0\.0\.1:\d+ \(pid \d+\); running: 1 app\(s\)$/m)
  t.assert.match(out, /^GET \/: 200 /m)
  t.assert.match(out, /^[\d,.]+ req\/s, p99 [\d.]+ ms$/m)
  t.assert.match(out, /^running after stop: 0 app\(s\)$/m)
})
