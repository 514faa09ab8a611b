'use strict'
// Notebook 04's quiet app: every answer computed once at start-up, so a request allocates almost
// nothing but its own answer on the wire.
const { reviewsServer } = require('../lib/reviews-server')
const { PRODUCTS, summaryByColumns } = require('../lib/reviews')

const answers = Array.from({ length: PRODUCTS }, (_, product) => summaryByColumns(product))
reviewsServer('memory-quiet', (product) => answers[product])
