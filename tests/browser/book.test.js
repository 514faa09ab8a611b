'use strict'
// The rendered book (make book) in a real browser, offline: every chart and flame graph on every page
// is drawn, the index links to every notebook's page, the previous/next links resolve, clinic reports
// are linked, code lines are not cut off, and nothing is fetched from the network.
// WORKBOOK_BOOK_DIR=path checks another book (default build/book).
const { test } = require('node:test')
const fs = require('node:fs')
const path = require('node:path')
const { pathToFileURL } = require('node:url')
const { ROOT, browser, artefact, imageSizes, visible } = require('./helpers')

const BOOK = path.resolve(process.env.WORKBOOK_BOOK_DIR || path.join(ROOT, 'build', 'book'))
const NOTEBOOKS = fs
  .readdirSync(path.join(ROOT, 'notebooks'))
  .filter((f) => /^\d\d-.*\.ipynb$/.test(f))
  .map((f) => f.replace(/\.ipynb$/, ''))
  .sort()

const url = (file) => pathToFileURL(path.join(BOOK, file)).href

test('the rendered book shows every chart offline, and its index and previous/next links resolve', async (t) => {
  const index = path.join(BOOK, 'index.html')
  t.assert.ok(fs.existsSync(index), `no book at ${BOOK}: run \`make book\` first (make test-browser does)`)
  const manifest = JSON.parse(fs.readFileSync(path.join(BOOK, 'book.json'), 'utf8'))
  // `make book` renders every notebook; a book made with --only says so, and is held to its own list.
  const expected = manifest.only ?? NOTEBOOKS
  if (manifest.only)
    t.diagnostic(`a partial book (book.py --only ${manifest.only.join(' ')}): checking those pages only`)
  else t.assert.deepStrictEqual(manifest.notebooks, NOTEBOOKS, 'the book was made from another set of notebooks')
  t.assert.deepStrictEqual(
    manifest.missing,
    [],
    `notebooks without a page: ${manifest.missing.map((m) => `${m.name} (${m.why})`).join(', ')}`,
  )

  const { context, page } = await browser(t, { viewport: { width: 1200, height: 900 } })
  const fetched = []
  await context.route('**/*', (route) => {
    const u = route.request().url()
    if (u.startsWith('file:') || u.startsWith('data:')) return route.continue()
    fetched.push(u)
    return route.abort()
  })

  // The index: one link per notebook, in order, each to a page that exists.
  await page.goto(url('index.html'))
  const links = await page.locator('a.wb-notebook').evaluateAll((as) => as.map((a) => a.getAttribute('href')))
  t.assert.deepStrictEqual(
    links,
    expected.map((n) => `${n}.html`),
  )
  for (const href of links) t.assert.ok(fs.existsSync(path.join(BOOK, href)), `the index links to a missing ${href}`)
  await page.screenshot({ path: artefact('book-index.png'), fullPage: true })

  const counts = {}
  for (const [i, name] of expected.entries()) {
    await page.goto(url(`${name}.html`))
    await t.test(name, async (t) => {
      // Fingerprint and run date in the header.
      t.assert.match(await page.locator('.wb-top .wb-machine').textContent(), /^Node v\d+/)
      t.assert.match(await page.locator('.wb-top .wb-date').textContent(), /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/)

      // Previous / next: present where they should be, pointing at the neighbours, and resolving.
      for (const [rel, other] of [
        ['prev', expected[i - 1]],
        ['next', expected[i + 1]],
      ]) {
        const hrefs = await page.locator(`a[rel="${rel}"]`).evaluateAll((as) => as.map((a) => a.getAttribute('href')))
        if (other === undefined) t.assert.deepStrictEqual(hrefs, [], `${name} has a ${rel} link but is at the end`)
        else {
          t.assert.deepStrictEqual(hrefs, [`${other}.html`, `${other}.html`], `${name}'s ${rel} links (top and bottom)`)
          t.assert.ok(fs.existsSync(path.join(BOOK, `${other}.html`)))
        }
      }
      t.assert.strictEqual(await page.locator('a[rel="contents"][href="index.html"]').count(), 2)

      // Every chart and flame graph: an image that loaded and takes room on the page.
      const images = await imageSizes(page, '.jp-OutputArea-output img, .jp-OutputArea-output svg')
      t.assert.ok(images.length > 0, `${name}: no chart at all`)
      const hidden = images.filter((im) => !visible(im))
      t.assert.deepStrictEqual(hidden, [], `${name}: charts not drawn`)
      counts[name] = images.length

      // Clinic reports mentioned by the outputs are copied beside the page and linked.
      const reports = await page.locator('a.wb-report').evaluateAll((as) => as.map((a) => a.getAttribute('href')))
      for (const r of reports) t.assert.ok(fs.existsSync(path.join(BOOK, r)), `${name} links to a missing report ${r}`)

      // Code is wrapped or scrolls, never cut off at the cell's edge.
      const cut = await page
        .locator('pre')
        .evaluateAll((pres) =>
          pres
            .filter(
              (p) => p.scrollWidth > p.clientWidth + 1 && !['auto', 'scroll'].includes(getComputedStyle(p).overflowX),
            )
            .map((p) => p.textContent.slice(0, 80)),
        )
      t.assert.deepStrictEqual(cut, [], `${name}: code lines cut off`)

      // A screenshot at the first chart.
      await page.locator('.jp-OutputArea-output img').first().scrollIntoViewIfNeeded()
      await page.screenshot({ path: artefact(`book-${name}.png`) })
    })
  }
  t.diagnostic(`charts per page: ${JSON.stringify(counts)}`)
  t.assert.deepStrictEqual(fetched, [], 'the book fetched from the network')
})
