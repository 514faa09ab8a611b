// Is B faster than A? Two versions of a server compared honestly (make compare; docs/your-server.md "Is it faster?").
//   node_modules/node/bin/node scripts/compare.js OLD.js NEW.js [--route /path] [--seconds 60]
//   node_modules/node/bin/node scripts/compare.js --app server.js --base main        (BASE's version against yours)
//   node_modules/node/bin/node scripts/compare.js --app server.js --runtimes node24,node26
//   node_modules/node/bin/node scripts/compare.js server.js server.js --same           (A/A: the noise floor)
// Prints the verdict, then every number it rests on; writes the result as JSON and a Markdown summary.
// Exit codes: 0 compared (the gate, if any, passed); 1 --fail-if-slower's gate failed; 2 bad input;
// 3 a server would not start or answer, or could not be measured; 130 interrupted.
const fs = require('node:fs')
const path = require('node:path')
const { parseArgs } = require('node:util')
const wb = require('@workbook/harness')
const internal = require('@workbook/harness/internal')
const tools = require('@workbook/tools')

const USAGE = `usage:
  make compare A=old/server.js B=new/server.js [ROUTE=/path] [SECONDS=60]
  make compare APP=server.js BASE=main            the file as committed at BASE (a temporary git worktree) against yours
  make compare APP=server.js RUNTIMES=node24,node26   one file on two runtimes (make runtimes installs Node 22, 24 and Bun)
  make compare A=server.js B=server.js SAME=1     an A/A run: the spread this machine gives, the effect it can detect
options: FAIL_IF_SLOWER=5 (percent: exit 1 when B is slower by more) · RUNTIME_A= RUNTIME_B= · CONNECTIONS=50
  DESIGN=side-by-side|rounds · ORDER=alternate|random · NOISE=2 (percent) · JSON=file · MARKDOWN=file`

const EXIT = { ok: 0, gate: 1, usage: 2, server: 3, interrupted: 130 }

class Usage extends Error {}

function options(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      app: { type: 'string' },
      base: { type: 'string' },
      runtimes: { type: 'string' },
      'runtime-a': { type: 'string' },
      'runtime-b': { type: 'string' },
      route: { type: 'string' },
      seconds: { type: 'string' },
      connections: { type: 'string' },
      design: { type: 'string' },
      order: { type: 'string' },
      noise: { type: 'string' },
      'fail-if-slower': { type: 'string' },
      same: { type: 'boolean' },
      json: { type: 'string' },
      markdown: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) throw new Usage('')
  const number = (name, v, min = 0) => {
    if (v === undefined || v === '') return undefined
    const n = Number(v)
    if (!Number.isFinite(n) || n < min)
      throw new Usage(`${name} must be a number of at least ${min}, not ${JSON.stringify(v)}`)
    return n
  }
  const o = {
    route: values.route || '/',
    seconds: number('SECONDS', values.seconds, 1),
    connections: number('CONNECTIONS', values.connections, 1),
    noise: number('NOISE', values.noise),
    failIfSlower: number('FAIL_IF_SLOWER', values['fail-if-slower']),
    design: values.design || undefined,
    order: values.order || undefined,
    same: Boolean(values.same),
    json: values.json,
    markdown: values.markdown,
  }
  if (!o.route.startsWith('/')) throw new Usage(`ROUTE must start with /, not ${JSON.stringify(o.route)}`)
  const app = values.app || undefined
  const files = positionals.filter(Boolean)
  const [ra, rb] = values.runtimes ? values.runtimes.split(',').map((s) => s.trim()) : []
  if (values.runtimes && (!ra || !rb))
    throw new Usage(`RUNTIMES takes two runtimes, e.g. RUNTIMES=node24,node26, not ${values.runtimes}`)
  const runtimeA = values['runtime-a'] || ra || undefined
  const runtimeB = values['runtime-b'] || rb || undefined
  if (app && files.length)
    throw new Usage('give either APP=... (with BASE=... or RUNTIMES=...) or A=... B=..., not both')
  if (app) {
    if (!values.base && !runtimeA && !runtimeB)
      throw new Usage('APP=... needs BASE=<commit> (the git form) or RUNTIMES=<a>,<b> (the runtime form)')
    return { ...o, kind: values.base ? 'git' : 'runtime', a: app, b: app, base: values.base, runtimeA, runtimeB }
  }
  if (values.base)
    throw new Usage('BASE=... compares APP=... with its committed version: give APP=server.js, not A and B')
  if (files.length !== 2) throw new Usage(files.length ? `A and B are both needed (got ${files.join(' ')})` : '')
  return { ...o, kind: 'files', a: files[0], b: files[1], runtimeA, runtimeB }
}

/** The make line that reproduces what was asked, as the learner would type it. */
function makeLine(o) {
  const q = (v) => (/^[\w./@:,=+-]+$/.test(v) ? v : `'${v.replace(/'/g, "'\\''")}'`)
  const parts = ['make compare']
  if (o.kind === 'files') parts.push(`A=${q(o.a)}`, `B=${q(o.b)}`)
  else parts.push(`APP=${q(o.a)}`)
  if (o.base) parts.push(`BASE=${q(o.base)}`)
  if (o.kind === 'runtime') parts.push(`RUNTIMES=${o.runtimeA ?? 'node26'},${o.runtimeB ?? 'node26'}`)
  else {
    if (o.runtimeA) parts.push(`RUNTIME_A=${q(o.runtimeA)}`)
    if (o.runtimeB) parts.push(`RUNTIME_B=${q(o.runtimeB)}`)
  }
  if (o.route !== '/') parts.push(`ROUTE=${q(o.route)}`)
  if (o.seconds) parts.push(`SECONDS=${o.seconds}`)
  if (o.connections) parts.push(`CONNECTIONS=${o.connections}`)
  if (o.same) parts.push('SAME=1')
  if (o.design) parts.push(`DESIGN=${o.design}`)
  if (o.order) parts.push(`ORDER=${o.order}`)
  if (o.noise !== undefined) parts.push(`NOISE=${o.noise}`)
  if (o.failIfSlower !== undefined) parts.push(`FAIL_IF_SLOWER=${o.failIfSlower}`)
  return parts.join(' ')
}

function write(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, text)
  return path.relative(process.cwd(), file) || file
}

let cleanup = () => {}

async function main() {
  let o
  try {
    o = options(process.argv.slice(2))
  } catch (err) {
    if (!(err instanceof Usage) && err.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw err
    if (err.message) console.error(`make compare: ${err.message}`)
    console.error(USAGE)
    return err.message ? EXIT.usage : EXIT.ok
  }
  let a = { app: o.a, runtime: o.runtimeA }
  const b = { app: o.b, runtime: o.runtimeB, label: o.kind === 'git' ? `${o.b} (your working tree)` : undefined }
  if (o.kind === 'git') {
    const base = tools.checkoutBase(o.a, o.base)
    cleanup = base.remove
    a = { ...a, app: base.file, label: `${o.a} at ${o.base} (${base.commit.slice(0, 10)}: ${base.subject})` }
    console.error(`BASE ${o.base} is ${base.commit.slice(0, 12)} "${base.subject}", checked out into ${base.dir}`)
  }
  const command = makeLine(o)
  console.error(`comparing, for at most ${o.seconds ?? (wb.settings().name === 'quick' ? 20 : 60)} s: ${command}`)
  try {
    const c = await tools.compare(a, b, {
      route: o.route,
      seconds: o.seconds,
      connections: o.connections,
      design: o.design,
      order: o.order,
      noise: o.noise === undefined ? undefined : o.noise / 100,
      failIfSlower: o.failIfSlower === undefined ? undefined : o.failIfSlower / 100,
      same: o.same,
      command,
      onRound: (p) =>
        console.error(
          `  round ${p.round} (session ${p.session}), ${p.seconds.toFixed(0)} s: B/A ${p.ratio === null ? 'n/a' : p.ratio.toFixed(3)}`,
        ),
    })
    console.log(c.text)
    const stamp = new Date().toISOString().replace(/[:.]/g, '-')
    const dir = path.join(internal.resultsDir, 'compare')
    console.log(`result: ${write(o.json ?? path.join(dir, `${stamp}.json`), `${JSON.stringify(c, null, 1)}\n`)}`)
    console.log(`summary (Markdown): ${write(o.markdown ?? path.join(dir, `${stamp}.md`), `${c.markdown}\n`)}`)
    return c.exitCode === 1 ? EXIT.gate : EXIT.ok
  } finally {
    cleanup()
  }
}

// Ctrl-C (or a CI job cancelled): stop both servers, remove the worktree, then exit 130.
let interrupted = false
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) return
    interrupted = true
    console.error(`\nmake compare: ${signal === 'SIGINT' ? 'interrupted' : 'terminated'}: stopping both servers`)
    internal
      .stopAll()
      .catch(() => {})
      .finally(() => {
        cleanup()
        process.exit(EXIT.interrupted)
      })
  })
}

main().then(
  (code) => {
    if (!interrupted) process.exit(code)
  },
  (err) => {
    if (interrupted) return // the signal's handler exits, once both servers are stopped
    cleanup()
    if (err instanceof wb.WorkbookError) {
      console.error(`make compare: ${err.message}`)
      const input = err.code === 'WB_BAD_OPTION' || err.code === 'WB_APP_NOT_FOUND'
      process.exit(input ? EXIT.usage : EXIT.server)
    }
    console.error(err)
    process.exit(EXIT.server)
  },
)
