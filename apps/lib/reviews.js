'use strict'
// The data of notebook 04's apps: 20,000 product reviews, the same on every start (a seeded random
// generator), and the answer every one of those apps gives to GET /reviews?product=N: the product's
// review count, its average stars, and its twenty most helpful reviews with their text (about 20 KB). The apps differ
// only in HOW they compute and keep it, which is what notebook 04 measures.

const PRODUCTS = 200
const REVIEWS = 20000
const TOP = 20

// mulberry32: a small seeded generator, so every app sees the same reviews.
function random(seed) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WORDS = 'fast sturdy cheap light broken great awful solid fine lovely noisy quiet small large warm cold'.split(
  ' ',
)
const next = random(42)
const reviews = Array.from({ length: REVIEWS }, (_, id) => ({
  id,
  product: Math.floor(next() * PRODUCTS),
  stars: 1 + Math.floor(next() * 5),
  helpful: Math.floor(next() * 1000),
  text: Array.from({ length: 100 }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' '),
}))

// The same reviews as columns (typed arrays), for the app that computes without allocating per review.
const columns = {
  product: Uint16Array.from(reviews, (r) => r.product),
  stars: Uint8Array.from(reviews, (r) => r.stars),
  helpful: Uint16Array.from(reviews, (r) => r.helpful),
}

/** The product asked for, or null when the query has none or a bad one. */
function productOf(url) {
  const m = /[?&]product=(\d{1,4})(?:&|$)/.exec(url)
  const n = m ? Number(m[1]) : Number.NaN
  return Number.isInteger(n) && n >= 0 && n < PRODUCTS ? n : null
}

/** The answer's JSON, from the product's review count, star total and top review ids (most helpful first). */
function answer(product, count, starTotal, topIds) {
  const top = topIds.map((id) => ({
    id,
    stars: reviews[id].stars,
    helpful: reviews[id].helpful,
    text: reviews[id].text,
  }))
  return JSON.stringify({
    product,
    reviews: count,
    stars: count ? Math.round((starTotal / count) * 100) / 100 : 0,
    top,
  })
}

/** The plain way: objects for every review, filtered, sorted and sliced per request (what notebook 04 calls churn). */
function summaryByObjects(product) {
  const mine = reviews
    .map((r) => ({ ...r, score: r.helpful * 10 + r.stars }))
    .filter((r) => r.product === product)
    .sort((a, b) => b.score - a.score || a.id - b.id)
  const starTotal = mine.reduce((sum, r) => sum + r.stars, 0)
  return answer(
    product,
    mine.length,
    starTotal,
    mine.slice(0, TOP).map((r) => r.id),
  )
}

/** The same answer from the columns, keeping the best TOP in a small array: no object per review. */
function summaryByColumns(product) {
  let count = 0
  let starTotal = 0
  const best = [] // at most TOP ids, best first
  const score = (id) => columns.helpful[id] * 10 + columns.stars[id]
  const better = (a, b) => score(a) > score(b) || (score(a) === score(b) && a < b)
  for (let id = 0; id < REVIEWS; id++) {
    if (columns.product[id] !== product) continue
    count++
    starTotal += columns.stars[id]
    if (best.length < TOP || better(id, best[TOP - 1])) {
      let i = Math.min(best.length, TOP - 1)
      while (i > 0 && better(id, best[i - 1])) i--
      best.splice(i, 0, id)
      if (best.length > TOP) best.pop()
    }
  }
  return answer(product, count, starTotal, best)
}

module.exports = { PRODUCTS, reviews, productOf, summaryByObjects, summaryByColumns }
