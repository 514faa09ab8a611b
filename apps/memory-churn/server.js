'use strict'
// Notebook 04's churning app: each request builds an object for every one of the 20,000 reviews,
// filters, sorts and slices them, and drops them all: megabytes of short-lived garbage per request.
const { reviewsServer } = require('../lib/reviews-server')
const { summaryByObjects } = require('../lib/reviews')

reviewsServer('memory-churn', (product) => summaryByObjects(product))
