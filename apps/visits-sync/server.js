'use strict'
// A visit counter that keeps one small JSON file per page: every GET /visit (or /visit?page=N) reads the page's
// file, adds one, writes it back and appends a line to an access log, with the *Sync calls of
// node:fs. Each call takes a fraction of a millisecond: no single long block, but the loop is never
// free. Notebook 06 diagnoses it, then its asynchronous twin, apps/visits-async/.
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

function visit(page) {
  const file = path.join(dir, `${page}.json`)
  const record = JSON.parse(fs.readFileSync(file, 'utf8'))
  record.visits++
  fs.writeFileSync(file, JSON.stringify(record))
  fs.appendFileSync(path.join(dir, 'access.log'), `${Date.now()} /visit?page=${page}\n`)
  return record.visits
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x')
  if (url.pathname !== '/visit') {
    res.writeHead(404, { 'content-type': 'text/plain' })
    res.end('not found\n')
    return
  }
  // ?page=N, or the next page in turn (as many visitors, each on a page of their own)
  const page = (url.searchParams.has('page') ? Number(url.searchParams.get('page')) : next++) % PAGES
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ page, visits: visit(page) }))
})

serveHttp('visits-sync', server)
