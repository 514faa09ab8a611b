'use strict'
// The route checks of notebook 03 (harness/src/conformance.ts), both ways: an in-process server
// that answers like the apps of apps/frameworks/ passes; each kind of wrong answer fails, on its
// own route, with a message that says what was wrong. No load: a handful of requests each.
const { test } = require('node:test')
const path = require('node:path')
const h = require('@workbook/harness')
const nb03 = require('../../notebooks/03-frameworks.ts')
const { serveHere, internal } = require('./helpers')
const { checkBlogBody } = internal('apps/conformance')
const payloads = require('../../apps/frameworks/lib/payloads')
const { ajvBody } = require('../../apps/frameworks/lib/body-validators')
const { DEFAULT_CHECKS, checkRoutes } = require('./helpers').internal('apps/conformance')

const TEXT = 'text/plain; charset=utf-8'
const JSON_TYPE = 'application/json; charset=utf-8'
const send = (res, status, type, body) => {
  res.writeHead(status, type ? { 'content-type': type } : {})
  res.end(body)
}

// What every framework app serves. `broken` replaces the answer of one path: (req, res) => void.
function frameworkLike(broken = {}) {
  return (req, res) => {
    if (broken[req.url]) return broken[req.url](req, res)
    if (req.method === 'GET' && req.url === '/hello') return send(res, 200, TEXT, payloads.HELLO_TEXT)
    if (req.method === 'GET' && req.url === '/json')
      return send(res, 200, JSON_TYPE, JSON.stringify(payloads.helloObject()))
    if (req.method === 'GET' && req.url === '/blog')
      return send(res, 200, JSON_TYPE, JSON.stringify(payloads.blogPost()))
    send(res, 404, TEXT, 'Not Found')
  }
}

// Check `handler` with the default checks; returns the result and the route called `route`.
async function checkWith(t, handler, route, opts = {}) {
  const url = await serveHere(t, handler)
  const result = await checkRoutes(url, opts.checks ?? DEFAULT_CHECKS, opts.timeoutMs)
  return { result, route: result.routes.find((r) => r.path === route) }
}

const blogWith = (change) => (req, res) => send(res, 200, JSON_TYPE, JSON.stringify(change(payloads.blogPost())))

test('a server that answers like the framework apps passes every default check', async (t) => {
  const { result } = await checkWith(t, frameworkLike(), '/hello')
  t.assert.strictEqual(result.ok, true, JSON.stringify(result.routes))
  t.assert.deepStrictEqual(
    result.routes.map((r) => `${r.method} ${r.path} ${r.status}`),
    ['GET /hello 200', 'GET /json 200', 'GET /blog 200', 'GET /no-such-route 404'],
  )
})

test('a wrong status fails its route and names both statuses; the other routes are still checked', async (t) => {
  const { result, route } = await checkWith(
    t,
    frameworkLike({ '/json': (req, res) => send(res, 500, JSON_TYPE, '{"error":"boom"}') }),
    '/json',
  )
  t.assert.strictEqual(result.ok, false)
  t.assert.match(route.error, /^status 500, expected 200; body "\{\\"error\\":\\"boom\\"\}"$/)
  t.assert.deepStrictEqual(
    result.routes.filter((r) => !r.ok).map((r) => r.path),
    ['/json'],
  )
})

test('a wrong content type fails with the type received and the one expected', async (t) => {
  const { result, route } = await checkWith(
    t,
    frameworkLike({ '/hello': (req, res) => send(res, 200, 'text/html; charset=utf-8', payloads.HELLO_TEXT) }),
    '/hello',
  )
  t.assert.strictEqual(result.ok, false)
  t.assert.strictEqual(route.error, 'content-type "text/html; charset=utf-8", expected one starting with "text/plain"')
})

test('a missing content type fails too', async (t) => {
  const { route } = await checkWith(
    t,
    frameworkLike({ '/json': (req, res) => send(res, 200, null, '{"hello":"world"}') }),
    '/json',
  )
  t.assert.match(route.error, /^content-type null, expected one starting with "application\/json"$/)
})

test('a different body fails with both texts', async (t) => {
  const { route } = await checkWith(
    t,
    frameworkLike({ '/json': (req, res) => send(res, 200, JSON_TYPE, '{"hello":"World"}') }),
    '/json',
  )
  t.assert.strictEqual(route.error, 'body "{\\"hello\\":\\"World\\"}", expected "{\\"hello\\":\\"world\\"}"')
})

test('a /blog post with the wrong images fails with what is wrong', async (t) => {
  const cases = [
    [(post) => ({ ...post, images: post.images.slice(0, 4) }), /^images has 4 names, expected 5$/],
    [
      (post) => ({ ...post, images: [...post.images.slice(0, 4), 'nope.png'] }),
      /^images not in images\.json: \["nope\.png"\]$/,
    ],
    [(post) => ({ ...post, images: [...post.images.slice(0, 4), post.images[0]] }), /^images repeats a name: /],
    [(post) => ({ ...post, images: post.images.join(',') }), /^images is not an array$/],
    [(post) => ({ ...post, title: '' }), /^title is not a non-empty string$/],
    [
      (post) => ({ ...post, draft: true }),
      /^keys are \[author, body, draft, images, title\], expected \[author, body, images, title\]$/,
    ],
  ]
  for (const [change, message] of cases) {
    const { result, route } = await checkWith(t, frameworkLike({ '/blog': blogWith(change) }), '/blog')
    t.assert.strictEqual(result.ok, false)
    t.assert.match(route.error, message)
  }
})

test('checkBlogBody accepts a real post and rejects text that is not a JSON object', (t) => {
  t.assert.strictEqual(checkBlogBody(JSON.stringify(payloads.blogPost())), null)
  t.assert.match(checkBlogBody('<html>'), /^body is not JSON: "<html>"$/)
  t.assert.strictEqual(checkBlogBody('[1,2]'), 'body is not a JSON object')
})

test('a server that answers 200 where there is no route fails the 404 check', async (t) => {
  const { result, route } = await checkWith(
    t,
    frameworkLike({ '/no-such-route': (req, res) => send(res, 200, TEXT, 'Hello, World!') }),
    '/no-such-route',
  )
  t.assert.strictEqual(result.ok, false)
  t.assert.match(route.error, /^status 200, expected 404; body "Hello, World!"$/)
})

test('a route that never answers fails within its time limit; a closed port fails as a failed request', async (t) => {
  const { route } = await checkWith(t, frameworkLike({ '/hello': () => {} }), '/hello', { timeoutMs: 300 })
  t.assert.strictEqual(route.status, null)
  t.assert.strictEqual(route.error, 'no complete answer within 300 ms')
  const url = await serveHere(t, frameworkLike())
  const closedUrl = url.replace(/:\d+$/, ':1') // port 1: nothing listens there
  const closed = await checkRoutes(closedUrl, DEFAULT_CHECKS.slice(0, 1), 1000)
  t.assert.strictEqual(closed.ok, false)
  t.assert.match(closed.routes[0].error, /^request failed: /)
})

// POST /validate, answered as fastify.js, express.js and elysia.js answer it.
function orderServer(validating) {
  const check = ajvBody()
  return (req, res) => {
    if (req.method !== 'POST' || req.url !== '/validate') return send(res, 404, TEXT, 'Not Found')
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      if (validating && !check(body)) return send(res, 400, JSON_TYPE, JSON.stringify({ ok: false }))
      send(res, 200, JSON_TYPE, '{"ok":true}')
    })
  }
}

test('validateChecks: the valid order passes both ways; the invalid one must get a 400 only when validating', async (t) => {
  const validatingUrl = await serveHere(t, orderServer(true))
  const lenientUrl = await serveHere(t, orderServer(false))
  t.assert.strictEqual((await checkRoutes(validatingUrl, nb03.validateChecks(true))).ok, true)
  t.assert.strictEqual((await checkRoutes(lenientUrl, nb03.validateChecks(false))).ok, true)
  // An app that claims to validate but lets the invalid order through fails, and the other way round.
  const notValidating = await checkRoutes(lenientUrl, nb03.validateChecks(true))
  t.assert.strictEqual(notValidating.ok, false)
  t.assert.deepStrictEqual(
    notValidating.routes.map((r) => r.ok),
    [true, false],
  )
  t.assert.match(notValidating.routes[1].error, /^status 200, expected 400; body "\{\\"ok\\":true\}"$/)
  const validatingAnyway = await checkRoutes(validatingUrl, nb03.validateChecks(false))
  t.assert.match(validatingAnyway.routes[1].error, /^status 400, expected 200/)
})

test('validateChecks sends the order of payloads.js: the valid one and one with a single bad line item', (t) => {
  const [valid, invalid] = nb03.validateChecks(true)
  t.assert.deepStrictEqual(valid.requestBody, payloads.SAMPLE_VALID_BODY)
  const wrong = invalid.requestBody.items.filter(
    (item, i) => JSON.stringify(item) !== JSON.stringify(payloads.SAMPLE_VALID_BODY.items[i]),
  )
  t.assert.strictEqual(wrong.length, 1)
  t.assert.strictEqual(ajvBody()(JSON.parse(JSON.stringify(invalid.requestBody))), false)
})

test("a framework's version is read from node_modules, and says which file when it cannot", (t) => {
  const root = path.join(__dirname, '..', '..')
  const { frameworkVersion } = internal('apps/frameworks')
  const entry = (name) => h.frameworks.find((f) => f.name === name)
  t.assert.strictEqual(entry('node-http').version, process.versions.node)
  t.assert.strictEqual(frameworkVersion(entry('fastify'), root), entry('fastify').version)
  t.assert.strictEqual(
    entry('fastify').version,
    require(path.join(root, 'node_modules', 'fastify', 'package.json')).version,
  )
  const ghost = { ...entry('fastify'), package: 'no-such-framework' }
  t.assert.throws(
    () => frameworkVersion(ghost, root),
    /^Error: cannot read the version of no-such-framework from .*no-such-framework\/package\.json: /,
  )
})

test("GET /random, the Swift-vs-Node study's /json, answers a whole number from 0 to 1000 in node-http and express", async (t) => {
  const seen = new Set()
  for (let i = 0; i < 2000; i++) {
    const { number } = payloads.randomNumber()
    t.assert.ok(Number.isInteger(number) && number >= 0 && number <= 1000, String(number))
    seen.add(number)
  }
  t.assert.ok(seen.size > 500, `${seen.size} distinct numbers in 2,000`)
  for (const name of ['node-http', 'express']) {
    await h.withApp(`frameworks/${name}`, async (app) => {
      const res = await fetch(`${app.url}/random`)
      t.assert.strictEqual(res.status, 200, name)
      t.assert.match(res.headers.get('content-type'), /^application\/json/, name)
      t.assert.deepStrictEqual(Object.keys(await res.json()), ['number'], name)
    })
  }
})
