'use strict'
// memory-churn reworked: the same answer computed from typed-array columns, the best five kept in a
// fixed array, so a request allocates no object per review (../lib/reviews.js, summaryByColumns).
const { reviewsServer } = require('../lib/reviews-server')
const { summaryByColumns } = require('../lib/reviews')

reviewsServer('memory-reworked', (product) => summaryByColumns(product))
