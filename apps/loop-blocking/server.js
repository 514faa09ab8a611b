'use strict'
// Head-of-line blocking: GET /expensive does tens of milliseconds of synchronous CPU work on the
// main thread (how many depends on the machine: each answer reports its workMs), and every other
// request (GET /cheap, timers, /__metrics) waits behind it.
const http = require('node:http')
const { serveHttp } = require('../lib/contract')
const { attachLoopMetrics } = require('../lib/loop-metrics')
const { workConfig, blockingHandler } = require('../lib/loop-work')

const NAME = 'loop-blocking'
const work = workConfig()

// The handler (in ../lib/loop-work.js, so that the shedding apps put their check in front of the very same
// one): /expensive runs the work synchronously, and every other request waits until it is done.
const server = http.createServer(blockingHandler(work))

const extra = { workRounds: work.rounds, workIterations: work.iterations }
attachLoopMetrics(server, { name: NAME, info: extra })
serveHttp(NAME, server, extra)
