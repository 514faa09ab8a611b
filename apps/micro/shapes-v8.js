'use strict'
// Notebook 05: V8's own view of object shapes and of read sites, asked with natives syntax.
// Run: node --allow-natives-syntax --trace-deopt apps/micro/shapes-v8.js
// V8 prints its --trace-deopt lines as they happen; this script then prints ONE JSON line
// ({"v8view":"shapes",...}) with what V8 said about each object and each read site.

// %Name(...) is V8's natives syntax: parsed only with --allow-natives-syntax (without it, these
// lines throw a SyntaxError). Each is wrapped in a function so that this file stays plain JavaScript.
const v8 = {
  hasFastProperties: new Function('o', 'return %HasFastProperties(o)'),
  haveSameMap: new Function('a', 'b', 'return %HaveSameMap(a, b)'),
  optimizationStatus: new Function('f', 'return %GetOptimizationStatus(f)'),
  feedback: new Function('f', 'return %GetFeedback(f)'),
  prepareForOptimization: new Function('f', '%PrepareFunctionForOptimization(f)'),
  optimizeOnNextCall: new Function('f', '%OptimizeFunctionOnNextCall(f)'),
}

// %GetOptimizationStatus returns bits; their layout changes between V8 versions. This is V8 14's
// (src/runtime/runtime.h): 1 << 3 optimised, 1 << 4 Maglev, 1 << 5 TurboFan, 1 << 6 interpreted
// (Ignition), 1 << 14 baseline (Sparkplug).
function tier(f) {
  const status = v8.optimizationStatus(f)
  if (status & (1 << 5)) return 'TurboFan (optimised)'
  if (status & (1 << 4)) return 'Maglev (optimised)'
  if (status & (1 << 14)) return 'Sparkplug (baseline)'
  if (status & (1 << 6)) return 'Ignition (interpreted)'
  return `unknown (status ${status})`
}

// The state of the first property read of f: MONOMORPHIC, POLYMORPHIC, MEGAMORPHIC...
function readSiteState(f) {
  const slot = v8.feedback(f).find(([kind]) => kind === 'LoadProperty')
  return slot ? slot[1].split('\n')[0].trim() : 'no feedback'
}

class Point {
  constructor(x, y, z) {
    this.x = x
    this.y = y
    this.z = z
  }
}
class DefinedPoint {
  constructor(x, y, z) {
    Object.defineProperty(this, 'x', { value: x, writable: true, enumerable: false })
    this.y = y
    this.z = z
  }
}

// Each way of building an object, as a function.
const BUILDERS = [
  ['new Point(1, 2, 3)', () => new Point(1, 2, 3)],
  ['{ x: 1, y: 2, z: 3 }', () => ({ x: 1, y: 2, z: 3 })],
  ['{ z: 3, y: 2, x: 1 }', () => ({ z: 3, y: 2, x: 1 })],
  ['{ x, y, z }, then w added', () => Object.assign({ x: 1, y: 2, z: 3 }, { w: 4 })],
  [
    '{ x, y, z }, then y deleted',
    () => {
      const o = { x: 1, y: 2, z: 3 }
      delete o.y
      return o
    },
  ],
  ['new DefinedPoint(1, 2, 3) (defineProperty)', () => new DefinedPoint(1, 2, 3)],
]
const literal = { x: 1, y: 2, z: 3 }
const objects = BUILDERS.map(([builtBy, build]) => ({
  builtBy,
  fastProperties: v8.hasFastProperties(build()),
  sameShapeAsLiteral: v8.haveSameMap(build(), literal),
}))

// A read site: one function per case, named after it (for --trace-deopt), fed `shapes` key orders,
// then optimised by TurboFan at once (%OptimizeFunctionOnNextCall), as it would be once hot.
const ORDERS = ['xyz', 'xzy', 'yxz', 'yzx', 'zxy', 'zyx']
const ordered = (order, i) => Object.fromEntries([...order].map((key) => [key, i]))
function readSite(name, shapes) {
  const read = new Function(`return function ${name}(o) { return o.x + o.y + o.z }`)()
  v8.prepareForOptimization(read)
  for (let i = 0; i < 1000; i++) read(ordered(ORDERS[i % shapes], i))
  v8.optimizeOnNextCall(read)
  read(ordered(ORDERS[0], 0))
  return read
}

const sites = []
for (const [name, shapes] of [
  ['readOneShape', 1],
  ['readTwoShapes', 2],
  ['readSixShapes', 6],
]) {
  const read = readSite(name, shapes)
  sites.push({ site: name, shapes, inlineCache: readSiteState(read), tier: tier(read), after: null })
}
// Then a shape it has never seen reaches the function optimised for one shape.
const mono = readSite('readThenNewShape', 1)
const before = { inlineCache: readSiteState(mono), tier: tier(mono) }
mono(ordered('zyx', 7))
sites.push({
  site: 'readThenNewShape',
  shapes: 1,
  ...before,
  after: { inlineCache: readSiteState(mono), tier: tier(mono) },
})

process.stdout.write(`\n${JSON.stringify({ v8view: 'shapes', v8: process.versions.v8, objects, sites })}\n`)
