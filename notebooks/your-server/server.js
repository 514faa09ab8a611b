// Your server: change it, save it, and diagnose it again (notebooks/06-your-server.ipynb, or from a
// terminal: make diagnose APP=notebooks/your-server/server.js ROUTE=/primes).
// An ordinary node:http server with two routes:
//   GET /             a small JSON answer
//   GET /primes?n=N   how many primes there are below N (default 10,000), counted the slow way
//
// Things to try, one at a time, each followed by a diagnosis:
//   * count faster: a divisor above the square root of i never divides it first (d * d <= i);
//   * answer later: put the answer of /primes in setTimeout(() => res.end(...), 50);
//   * remember everything: keep every answer in a Map under a key that never repeats;
//   * read a file on every request: fs.readFileSync(__filename) in the handler.
const http = require('node:http')

function countPrimes(n) {
  let count = 0
  for (let i = 2; i < n; i++) {
    let prime = true
    for (let d = 2; d < i; d++) {
      if (i % d === 0) {
        prime = false
        break
      }
    }
    if (prime) count++
  }
  return count
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost')
  res.setHeader('content-type', 'application/json')
  if (url.pathname === '/primes') {
    const n = Number(url.searchParams.get('n') ?? 10_000)
    res.end(JSON.stringify({ n, primes: countPrimes(n) }))
  } else {
    res.end(JSON.stringify({ hello: 'world' }))
  }
})

server.listen(process.env.PORT || 3000, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`)
})
