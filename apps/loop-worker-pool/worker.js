'use strict'
// Runs inside a piscina worker thread: the very same synchronous work as loop-blocking.
// It still blocks a thread for ~60 ms, just not the one that answers HTTP requests.
const { workSync } = require('../loop-blocking/shared')

module.exports = function expensive (work) {
  return workSync(work)
}
