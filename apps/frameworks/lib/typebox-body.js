'use strict'
// schemas.validateBody of payloads.js as a TypeBox schema, built with the `t` it is given
// (Elysia's, which extends TypeBox's Type), so elysia.js and validator-cost.js validate the same
// limits as the Ajv apps without a second copy of them.
const { schemas } = require('./payloads')

function typeboxBody (t) {
  const rule = schemas.validateBody.properties
  return t.Object({
    name: t.String({ minLength: rule.name.minLength, maxLength: rule.name.maxLength }),
    age: t.Integer({ minimum: rule.age.minimum, maximum: rule.age.maximum }),
    email: t.String({ maxLength: rule.email.maxLength, pattern: rule.email.pattern }),
    tags: t.Array(t.String(), { maxItems: rule.tags.maxItems })
  })
}

module.exports = { typeboxBody }
