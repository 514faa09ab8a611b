'use strict'
// Serve a fetch handler ((Request) => Response) under the app contract of apps/lib/contract.js.
// On Bun: Bun.serve, the runtime's own server, with no node:http in between. On Node: through
// @hono/node-server's adaptor (node:http request -> fetch Request -> Response -> node:http
// reply), so that an app written for Bun still keeps the contract wherever it is started
// (tests/unit/contract.test.js starts every registered app on the pinned Node).
const { HOST, port, announce, onShutdown, serveHttp } = require('../../lib/contract')

const onBun = typeof globalThis.Bun !== 'undefined'

function serveFetch(name, fetch, extra = {}) {
  if (onBun) {
    const server = globalThis.Bun.serve({ port: port(), hostname: HOST, fetch })
    announce(name, server.port, { server: 'Bun.serve', ...extra })
    onShutdown(() => server.stop(true))
    return server
  }
  const { createAdaptorServer } = require('@hono/node-server')
  return serveHttp(name, createAdaptorServer({ fetch }), { server: '@hono/node-server', ...extra })
}

module.exports = { onBun, serveFetch }
