'use strict'
// Runs inside a piscina worker thread: the very same synchronous work as loop-blocking.
// It still blocks a thread for the whole work, just not the one that answers HTTP requests.
const { workSync } = require('../lib/loop-work')

module.exports = function expensive(work) {
  return workSync(work)
}
