'use strict'
// The validators of POST /validate, built from schemas.validateBody of payloads.js in one place,
// for the apps (express.js, elysia.js) and for validator-cost.js, which times them on their own.
const { schemas, AJV_OPTIONS } = require('./payloads')

// Ajv 8 with fastify's default options, compiled once: what express.js runs, and the same
// validator fastify builds from the route's body schema.
function ajvBody() {
  const Ajv = require('ajv').default
  return new Ajv(AJV_OPTIONS).compile(schemas.validateBody)
}

// The JSON Schema keywords the conversion below carries over, beside `type`, `properties`,
// `required` and `items`. A keyword outside this list stops the conversion, so that a limit added
// to schemas.validateBody can never be dropped silently from Elysia's copy.
const CARRIED = new Set(['minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'minItems', 'maxItems'])

// schemas.validateBody as a TypeBox schema, built with the `t` it is given (Elysia's, which
// extends TypeBox's Type): the same limits, property by property; a property left out of
// `required` becomes t.Optional.
function typeboxBody(t, schema = schemas.validateBody, where = 'body') {
  const { type, properties, required = [], items, ...limits } = schema
  for (const key of Object.keys(limits)) {
    if (!CARRIED.has(key))
      throw new Error(`typeboxBody: ${where} uses "${key}", which the TypeBox conversion does not carry over`)
  }
  switch (type) {
    case 'object': {
      const shape = {}
      for (const [key, inner] of Object.entries(properties)) {
        const converted = typeboxBody(t, inner, `${where}.${key}`)
        shape[key] = required.includes(key) ? converted : t.Optional(converted)
      }
      return t.Object(shape, limits)
    }
    case 'array':
      return t.Array(typeboxBody(t, items, `${where}[]`), limits)
    case 'string':
      return t.String(limits)
    case 'integer':
      return t.Integer(limits)
    case 'number':
      return t.Number(limits)
    case 'boolean':
      return t.Boolean(limits)
  }
  throw new Error(`typeboxBody: ${where} has type ${JSON.stringify(type)}, which the TypeBox conversion does not know`)
}

// What Elysia 1.4 runs on a body with that schema, built by Elysia's own getSchemaValidator with
// its defaults (normalize: true): first exact-mirror's Clean, a compiled copy of the body that
// keeps only the properties the schema names, then TypeBox's compiled Check. Returns
// (body) => boolean.
function elysiaBody() {
  const { t, getSchemaValidator } = require('elysia')
  const validator = getSchemaValidator(typeboxBody(t), { normalize: true })
  if (typeof validator.Clean !== 'function')
    throw new Error('elysiaBody: Elysia built no normaliser (exact-mirror) for the body')
  return (body) => {
    let value = body
    try {
      value = validator.Clean(value)
    } catch {
      /* Elysia ignores a failed normalisation too */
    }
    return validator.Check(value)
  }
}

module.exports = { ajvBody, typeboxBody, elysiaBody }
