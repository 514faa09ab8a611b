'use strict'
// Not an app: times one body validator of POST /validate on its own, outside any server, and
// prints one JSON line. A load test shows what validation costs a whole request, mixed with
// everything else the server and the load generator do; this shows the validator's own share,
// so that a notebook can set the two figures side by side.
//
//   <runtime> validator-cost.js ajv|typebox|none [batches]
//
//   ajv      Ajv 8 compiled with fastify's default options: what fastify.js and express.js run.
//   typebox  What Elysia 1.4 runs on the body (lib/body-validators.js elysiaBody): its default
//            normalisation (exact-mirror's Clean, a compiled copy of the body) then TypeBox's
//            compiled Check.
//   none     the control: a "validator" that looks at nothing, to show what "no price" reads as.
//
// Each batch parses the body N times alone, then parses and validates it N times (the order
// alternates between batches; N is chosen so that a batch takes at least BATCH_MS). The ratio of
// a batch is parse-only time over parse-and-validate time: the throughput a loop that only parses
// and validates keeps with validation on. Medians over the batches.
const { SAMPLE_VALID_BODY, SAMPLE_INVALID_BODY } = require('./payloads')
const { ajvBody, elysiaBody } = require('./body-validators')

const BATCH_MS = 20
const WARMUP_BATCHES = 5

function compile(kind) {
  if (kind === 'ajv') return ajvBody()
  if (kind === 'typebox') return elysiaBody()
  if (kind === 'none') return (value) => value !== null
  throw new Error(`unknown validator ${JSON.stringify(kind)}: use ajv, typebox or none`)
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

function main(argv) {
  const kind = argv[0]
  const batches = argv[1] === undefined ? 21 : Number(argv[1])
  if (!Number.isInteger(batches) || batches < 1) throw new Error(`batches must be a positive integer, got ${argv[1]}`)
  const validate = compile(kind)
  const text = JSON.stringify(SAMPLE_VALID_BODY)
  if (!validate(JSON.parse(text))) throw new Error(`the ${kind} validator rejects SAMPLE_VALID_BODY`)
  if (kind !== 'none' && validate(JSON.parse(JSON.stringify(SAMPLE_INVALID_BODY))))
    throw new Error(`the ${kind} validator accepts SAMPLE_INVALID_BODY`)
  const items = SAMPLE_VALID_BODY.items.length
  let sink = 0
  let calls = 0
  let n = 1000
  const parseOnly = () => {
    const t0 = performance.now()
    for (let i = 0; i < n; i++) sink += JSON.parse(text).items.length
    calls += n
    return ((performance.now() - t0) * 1e6) / n
  }
  const parseAndValidate = () => {
    const t0 = performance.now()
    for (let i = 0; i < n; i++) {
      const body = JSON.parse(text)
      if (validate(body)) sink += body.items.length
    }
    calls += n
    return ((performance.now() - t0) * 1e6) / n
  }
  while (parseAndValidate() * n < BATCH_MS * 1e6) n *= 2
  const off = []
  const on = []
  for (let b = 0; b < WARMUP_BATCHES + batches; b++) {
    let offNs, onNs
    if (b % 2) {
      onNs = parseAndValidate()
      offNs = parseOnly()
    } else {
      offNs = parseOnly()
      onNs = parseAndValidate()
    }
    if (b >= WARMUP_BATCHES) {
      off.push(offNs)
      on.push(onNs)
    }
  }
  if (sink !== calls * items) throw new Error('a validator rejected the body during the run')
  const ratios = off.map((o, i) => o / on[i])
  const runtime = process.versions.bun ? `Bun ${process.versions.bun}` : `Node ${process.versions.node}`
  process.stdout.write(
    `${JSON.stringify({
      validator: kind,
      runtime,
      bodyBytes: Buffer.byteLength(text),
      items,
      iterations: n,
      batches,
      parseNs: median(off),
      parseAndValidateNs: median(on),
      validateNs: median(on.map((o, i) => o - off[i])),
      ratio: median(ratios),
      ratioMin: Math.min(...ratios),
      ratioMax: Math.max(...ratios),
    })}\n`,
  )
}

try {
  main(process.argv.slice(2))
} catch (err) {
  process.stderr.write(`${err.stack}\n`)
  process.exit(1)
}
