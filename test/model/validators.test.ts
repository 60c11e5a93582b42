import t from "tap";
import { Ajv } from "ajv";
import { buildRoutes } from "../../src/http/routes/route-table.js";
import { isPlayerRecord } from "../../src/model/schemas.js";
import { compileEveryValidator, everyValidatorSchema, validatorOnFirstUse } from "../../src/model/validator.js";

t.test("every validator of every route and record schema compiles under ajv's strict mode", (t) => {
  const routes = buildRoutes(() => true);
  t.ok(routes.length > 30);
  // The record schemas, both body schemas and the parameter schemas of every route (shared ones once).
  t.ok(compileEveryValidator() > 40);
  t.end();
});

t.test("every schema is valid against JSON Schema's meta-schema (the request path's ajv skips that check)", (t) => {
  buildRoutes(() => true);
  const meta = new Ajv({ strict: true });
  const schemas = everyValidatorSchema();
  t.ok(schemas.length > 40);
  for (const schema of schemas) t.ok(meta.validateSchema(schema), `${JSON.stringify(schema).slice(0, 80)}: ${meta.errorsText(meta.errors)}`);
  t.notOk(meta.validateSchema({ type: "integer", minimum: "3" }), "a schema with a bad keyword value is refused by this check");
  t.end();
});

t.test("a validator compiled on first use answers and reports errors as ajv's own", (t) => {
  const schema = { type: "object", required: ["n"], properties: { n: { type: "integer", maximum: 3 } } } as const;
  const eager = new Ajv({ allErrors: true, strict: true }).compile(schema);
  const lazy = validatorOnFirstUse(new Ajv({ allErrors: true, strict: true }), schema);
  for (const value of [{ n: 1 }, { n: 4 }, {}, { n: "x" }, null, { n: 2 }]) {
    t.equal(lazy(value), eager(value), JSON.stringify(value));
    t.same(lazy.errors, eager.errors, `errors of ${JSON.stringify(value)}`);
  }
  t.end();
});

t.test("a record validator still refuses a bad record with its reason", (t) => {
  t.equal(isPlayerRecord({ name: "no id" }), false);
  t.match(isPlayerRecord.errors?.[0]?.message ?? "", /must have required property/);
  t.end();
});
