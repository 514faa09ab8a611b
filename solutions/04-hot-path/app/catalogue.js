'use strict'
// The shop's catalogue: 1,000 products, built once at start-up from a seeded generator, so every
// run (and every copy of this exercise) serves the very same data. It never changes afterwards.
const TAGS = [
  'red', 'blue', 'green', 'black', 'white', 'wood', 'steel', 'glass', 'kitchen', 'garden',
  'office', 'outdoor', 'kids', 'sale', 'new', 'eco', 'compact', 'premium', 'gift', 'travel',
]
const ADJECTIVES = ['Sturdy', 'Light', 'Classic', 'Modern', 'Folding', 'Quiet', 'Smart', 'Tiny', 'Grand', 'Soft']
const NOUNS = ['Chair', 'Lamp', 'Kettle', 'Shelf', 'Planter', 'Desk', 'Bench', 'Mug', 'Rug', 'Clock', 'Basket', 'Stool']

// A small linear congruential generator: deterministic, unlike Math.random().
function seeded (seed) {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

function buildCatalogue (size = 1000, seed = 42) {
  const random = seeded(seed)
  const pick = (list) => list[Math.floor(random() * list.length)]
  const products = []
  for (let i = 1; i <= size; i++) {
    const tags = new Set()
    while (tags.size < 3) tags.add(pick(TAGS))
    const name = `${pick(ADJECTIVES)} ${pick(NOUNS)}`
    products.push({
      sku: `SKU-${String(i).padStart(5, '0')}`,
      name,
      price: 199 + Math.floor(random() * 20000), // cents
      tags: [...tags],
      stock: Math.floor(random() * 50),
      description: `${name}, made to last.`,
    })
  }
  return products
}

const catalogue = Object.freeze(buildCatalogue().map((product) => Object.freeze(product)))

module.exports = { TAGS, catalogue }
