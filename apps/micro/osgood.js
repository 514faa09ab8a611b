'use strict'
// Notebook 05, the Osgood list: what Osgood 0.2 (2019) changed in its request objects to go from
// 25,000 to 77,000 "Hello, World!" requests a second, measured one change at a time.
//   1. A field that user code should not see: Object.defineProperty (non-enumerable) against a
//      private class field, a symbol-keyed property and a V8 private symbol, with a plain public
//      property as the control. Each task builds a request object and reads the field back.
//   2. A costly object (a WHATWG Headers built from the raw header list) made in the constructor
//      (eager) or on first use (lazy), for a handler that never reads a header, and for one that does.
//   3. A handler's string answer made ready to write: through the path every kind of body takes
//      (encode to bytes, gather the chunks, copy them into one) or through a check for a string first,
//      which hands it on with its byte length (the unneeded work on string responses, skipped).
//   4. A request's own state reached from the request object: looked up by id in a table at every
//      access, or through a reference the object holds (references instead of table look-ups).
// Run: node --allow-natives-syntax apps/micro/osgood.js (prints one JSON line).
const { suite, fresh } = require('./lib/bench')

// V8's private symbols (what Osgood's C++ used) are not reachable from JavaScript;
// --allow-natives-syntax exposes them. Without that flag this line throws a SyntaxError.
const privateSymbol = new Function('name', 'return %CreatePrivateSymbol(name)')

const SECRET = Symbol('secret')
const PRIVATE = privateSymbol('secret')

class PlainField {
  constructor(v) {
    this.secret = v
  }
  get() {
    return this.secret
  }
}
class DefinedField {
  constructor(v) {
    Object.defineProperty(this, 'secret', { value: v, writable: true, enumerable: false, configurable: false })
  }
  get() {
    return this.secret
  }
}
class PrivateField {
  #secret
  constructor(v) {
    this.#secret = v
  }
  get() {
    return this.#secret
  }
}
class SymbolField {
  constructor(v) {
    this[SECRET] = v
  }
  get() {
    return this[SECRET]
  }
}
class PrivateSymbolField {
  constructor(v) {
    this[PRIVATE] = v
  }
  get() {
    return this[PRIVATE]
  }
}

// Each read task gets its own copy of this function (fresh): its read site sees one kind only.
function read16(i, objects) {
  let sum = 0
  for (let k = 0; k < 16; k++) sum += objects[(i + k) & 1023].get()
  return sum
}

// The raw header list of a typical browser request, as node:http gives it (rawHeaders).
const RAW = [
  ['host', 'localhost:3000'],
  ['user-agent', 'Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/140.0'],
  ['accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
  ['accept-language', 'en-GB,en;q=0.5'],
  ['accept-encoding', 'gzip, deflate, br'],
  ['connection', 'keep-alive'],
  ['cookie', 'session=4f2a9c; theme=dark'],
  ['cache-control', 'no-cache'],
]

class EagerRequest {
  constructor(url, raw) {
    this.url = url
    this.headers = new Headers(raw)
  }
}
class LazyRequest {
  #raw
  #headers = null
  constructor(url, raw) {
    this.url = url
    this.#raw = raw
  }
  get headers() {
    this.#headers ??= new Headers(this.#raw)
    return this.#headers
  }
}

// 3. Every kind of body (string, bytes, a list of chunks) through one path, or a string first.
const encoder = new TextEncoder()
function anyBody(body) {
  const parts = (Array.isArray(body) ? body : [body]).map((p) => (typeof p === 'string' ? encoder.encode(p) : p))
  let length = 0
  for (const p of parts) length += p.byteLength
  const chunk = new Uint8Array(length)
  let at = 0
  for (const p of parts) {
    chunk.set(p, at)
    at += p.byteLength
  }
  return chunk
}
function stringFirst(body) {
  if (typeof body === 'string') return { chunk: body, length: Buffer.byteLength(body) }
  const chunk = anyBody(body)
  return { chunk, length: chunk.byteLength }
}

// 4. The same state (url, method, raw headers), reached by id through a table or by reference.
const STATE = new Map()
for (let id = 0; id < 1024; id++) STATE.set(id, { url: `/hello/${id & 7}`, method: 'GET', raw: RAW })
class ByIdRequest {
  constructor(id) {
    this.id = id
  }
  get url() {
    return STATE.get(this.id).url
  }
  get method() {
    return STATE.get(this.id).method
  }
  get raw() {
    return STATE.get(this.id).raw
  }
}
class ByReferenceRequest {
  constructor(state) {
    this.state = state
  }
  get url() {
    return this.state.url
  }
  get method() {
    return this.state.method
  }
  get raw() {
    return this.state.raw
  }
}
// What a handler reads of its request: three fields.
function handle(i, requests) {
  const req = requests[i & 1023]
  return req.url.length + req.method.length + req.raw.length
}

// Built once: 1,024 objects of each kind, for the tasks that read the field.
const built = (Kind) => Array.from({ length: 1024 }, (_, i) => new Kind(i))
const KINDS = {
  'plain property (control)': PlainField,
  'Object.defineProperty': DefinedField,
  'private class field #': PrivateField,
  'symbol property': SymbolField,
  'V8 private symbol': PrivateSymbolField,
}

const bench = suite('osgood')
for (const [name, Kind] of Object.entries(KINDS)) {
  // The object is kept (sunk): a constructor whose object is dropped can be optimised away.
  bench.add(`build: ${name}`, (i) => new Kind(i), { group: 'build an object with a hidden field' })
}
for (const [name, Kind] of Object.entries(KINDS)) {
  bench.add(`read: ${name}`, fresh(read16), { input: built(Kind), group: 'read the hidden field of 16 objects' })
}
bench
  .add('eager, no header read', (i) => new EagerRequest(`/hello/${i & 7}`, RAW).url, { group: 'Headers' })
  .add('lazy, no header read', (i) => new LazyRequest(`/hello/${i & 7}`, RAW).url, { group: 'Headers' })
  .add('eager, one header read', (i) => new EagerRequest(`/hello/${i & 7}`, RAW).headers.get('accept'), {
    group: 'Headers',
  })
  .add('lazy, one header read', (i) => new LazyRequest(`/hello/${i & 7}`, RAW).headers.get('accept'), {
    group: 'Headers',
  })
  .add('string answer: the path for any body', () => anyBody('Hello, World!'), { group: 'string answer' })
  .add('string answer: a string first', () => stringFirst('Hello, World!'), { group: 'string answer' })
  .add('state by id, in a table', fresh(handle), {
    input: Array.from(STATE.keys(), (id) => new ByIdRequest(id)),
    group: 'request state',
  })
  .add('state by reference', fresh(handle), {
    input: Array.from(STATE.values(), (state) => new ByReferenceRequest(state)),
    group: 'request state',
  })
  .run()
