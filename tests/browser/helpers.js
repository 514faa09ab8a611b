'use strict'
// Shared bits of the real-browser tests: the system's Chromium driven by playwright-core (its own
// browser download is not used), a fresh profile per test, artefacts in build/browser/.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const net = require('node:net')
const { chromium } = require('playwright-core')

const ROOT = path.resolve(__dirname, '..', '..')
const ARTEFACTS = path.join(ROOT, 'build', 'browser')
const CHROMIUM = process.env.WORKBOOK_CHROMIUM || '/usr/bin/chromium'
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * Chromium with a fresh --user-data-dir (playwright passes it for a persistent context, and refuses
 * it in `args`), closed and its profile removed by t.after(). Resolves to { context, page }.
 */
async function browser(t, { viewport = { width: 1280, height: 900 } } = {}) {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `no Chromium at ${CHROMIUM}: install it (Debian/Ubuntu: apt-get install -y chromium) or set WORKBOOK_CHROMIUM`,
    )
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
  })
  t.after(async () => {
    await context.close().catch(() => {})
    fs.rmSync(profile, { recursive: true, force: true })
  })
  const page = context.pages()[0] ?? (await context.newPage())
  return { context, page }
}

/** build/browser/<name>, the folder made first. */
function artefact(name) {
  fs.mkdirSync(ARTEFACTS, { recursive: true })
  return path.join(ARTEFACTS, name)
}

async function freePort() {
  const srv = net.createServer()
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve))
  const { port } = srv.address()
  await new Promise((resolve) => srv.close(resolve))
  return port
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function waitUntil(what, predicate, ms, step = 250) {
  const end = Date.now() + ms
  for (;;) {
    const value = await predicate()
    if (value) return value
    if (Date.now() > end) throw new Error(`timed out after ${Math.round(ms / 1000)} s waiting for ${what}`)
    await sleep(step)
  }
}

/** Visibility of every image (img, or inline svg) under `selector` on the page, each scrolled into view first. */
async function imageSizes(page, selector) {
  const handles = await page.locator(selector).elementHandles()
  const out = []
  for (const h of handles) {
    await h.scrollIntoViewIfNeeded().catch(() => {})
    out.push(
      await h.evaluate(async (el) => {
        if (el.tagName.toLowerCase() === 'img' && !el.complete) {
          await new Promise((resolve) => {
            el.addEventListener('load', resolve, { once: true })
            el.addEventListener('error', resolve, { once: true })
          })
        }
        const box = el.getBoundingClientRect()
        const img = el.tagName.toLowerCase() === 'img'
        return {
          tag: el.tagName.toLowerCase(),
          naturalWidth: img ? el.naturalWidth : null,
          width: box.width,
          height: box.height,
          what: img ? (el.getAttribute('src') || '').slice(0, 40) : (el.getAttribute('aria-label') ?? 'svg'),
        }
      }),
    )
  }
  return out
}

const visible = (i) => i.width > 0 && i.height > 0 && (i.tag !== 'img' || i.naturalWidth > 0)

module.exports = {
  ROOT,
  ARTEFACTS,
  CHROMIUM,
  CHROMIUM_ARGS,
  browser,
  artefact,
  freePort,
  sleep,
  waitUntil,
  imageSizes,
  visible,
}
