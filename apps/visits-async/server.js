'use strict'
// apps/visits-sync/ with node:fs's promise API: the same files, the same reads and writes, awaited.
// The loop hands each read and write to libuv's thread pool and serves other requests meanwhile.
// Two visits to one page may now overlap, so each page's updates wait their turn (a promise per page).
const fs = require('node:fs')
const http = require('node:http')
const os = require('node:os')
const path = require('node:path')
const { serveHttp } = require('../lib/contract')

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'workbook-visits-'))
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }))
const PAGES = 200
let next = 0
const padding = 'x'.repeat(16 * 1024) // each record also keeps the page's recent referrers
for (let i = 0; i < PAGES; i++) fs.writeFileSync(path.join(dir, `${i}.json`), JSON.stringify({ visits: 0, padding }))

const turns = new Map() // page -> the promise of its last update

async function visit(page) {
  const file = path.join(dir, `${page}.json`)
  const record = JSON.parse(await fs.promises.readFile(file, 'utf8'))
  record.visits++
  await fs.promises.writeFile(file, JSON.stringify(record))
  await fs.promises.appendFile(path.join(dir, 'access.log'), `${Date.now()} /visit?page=${page}\n`)
  return record.visits
}

function inTurn(page) {
  const next = (turns.get(page) ?? Promise.resolve()).then(() => visit(page))
  turns.set(
    page,
    next.catch(() => {}),
  )
  return next
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x')
  if (url.pathname !== '/visit') {
    res.writeHead(404, { 'content-type': 'text/plain' })
    res.end('not found\n')
    return
  }
  // ?page=N, or the next page in turn (as many visitors, each on a page of their own)
  const page = (url.searchParams.has('page') ? Number(url.searchParams.get('page')) : next++) % PAGES
  const visits = await inTurn(page)
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ page, visits }))
})

serveHttp('visits-async', server)
