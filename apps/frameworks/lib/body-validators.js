'use strict'
// The validators of POST /validate, built from schemas.validateBody of payloads.js in one place,
// for the apps (express.js, elysia.js) and for validator-cost.js, which times them on their own.
const { schemas, AJV_OPTIONS } = require('./payloads')

// Ajv 8 with fastify's default options, compiled once: what express.js runs, and the same
// validator fastify builds from the route's body schema.
function ajvBody () {
  const Ajv = require('ajv').default
  return new Ajv(AJV_OPTIONS).compile(schemas.validateBody)
}

// The same limits as a TypeBox schema, built with the `t` it is given (Elysia's, which extends
// TypeBox's Type).
function typeboxBody (t) {
  const rule = schemas.validateBody.properties
  return t.Object({
    name: t.String({ minLength: rule.name.minLength, maxLength: rule.name.maxLength }),
    age: t.Integer({ minimum: rule.age.minimum, maximum: rule.age.maximum }),
    email: t.String({ maxLength: rule.email.maxLength, pattern: rule.email.pattern }),
    tags: t.Array(t.String(), { maxItems: rule.tags.maxItems })
  })
}

module.exports = { ajvBody, typeboxBody }
