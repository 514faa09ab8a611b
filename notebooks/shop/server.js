// A small bookshop API of the kind a tutorial builds, on express: notebook 06 ranks its routes
// (routes.json) by what a request costs. It listens on PORT or 3000.
//   GET  /books?page=N     a page of 20 books from the catalogue
//   GET  /books/:id        one book, by id
//   GET  /search?q=WORDS   the books whose title or author holds the words
//   POST /orders           an order ({ "book": id, "quantity": n }), priced and kept
const express = require('express')

const AUTHORS = ['Austen', 'Tolkien', 'Le Guin', 'Pratchett', 'Morrison', 'Ishiguro', 'Atwood', 'Calvino']
const WORDS = ['river', 'night', 'garden', 'letters', 'winter', 'city', 'silver', 'journey', 'house', 'sea']
const catalogue = Array.from({ length: 20_000 }, (_, i) => ({
  id: i + 1,
  title: `The ${WORDS[i % WORDS.length]} of ${WORDS[(i * 7) % WORDS.length]}, part ${i + 1}`,
  author: AUTHORS[i % AUTHORS.length],
  price: 5 + (i % 40),
}))
const byId = new Map(catalogue.map((b) => [b.id, b]))
const orders = []

const app = express()
app.set('etag', false)
app.use(express.json())

app.get('/books', (req, res) => {
  const page = Math.max(1, Number(req.query.page) || 1)
  res.json(catalogue.slice((page - 1) * 20, page * 20))
})

app.get('/books/:id', (req, res) => {
  const book = byId.get(Number(req.params.id))
  if (book) res.json(book)
  else res.status(404).json({ error: 'no such book' })
})

app.get('/search', (req, res) => {
  const words = String(req.query.q ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
  const found = catalogue.filter((b) => words.every((w) => `${b.title} ${b.author}`.toLowerCase().includes(w)))
  res.json({ count: found.length, books: found.slice(0, 20) })
})

app.post('/orders', (req, res) => {
  const book = byId.get(Number(req.body?.book))
  const quantity = Math.min(10, Math.max(1, Number(req.body?.quantity) || 1))
  if (!book) return res.status(400).json({ error: 'no such book' })
  const order = { id: orders.length + 1, book: book.id, quantity, total: book.price * quantity }
  orders.push(order)
  if (orders.length > 1000) orders.shift()
  res.status(201).json(order)
})

app.listen(process.env.PORT || 3000, '127.0.0.1', function () {
  console.log(`bookshop on http://127.0.0.1:${this.address().port}`)
})
