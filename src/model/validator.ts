// ajv validators compiled on their first call rather than at import. A worker thread used to spend
// half its boot (~360 ms) in ajv's code generation for every route's schemas and the record
// schema, most of which a given worker never runs; now it compiles the ones its requests use, once.
// The schemas are still all compiled in the tests (test/model/validators.test.ts), so a schema
// strict mode refuses fails there, not on a server's first request. The request path's ajv
// instances also skip checking each schema against JSON Schema's meta-schema (REQUEST_AJV_OPTIONS):
// compiling the meta-schema was ~30 ms of a worker's first request; the test checks every schema
// against it instead.

import type { Ajv, AnySchema, ValidateFunction } from "ajv";

/** ajv options of the instances that validate requests (see above). */
export const REQUEST_AJV_OPTIONS = { strict: true, validateSchema: false } as const;

/** Every validator made here, so a test can compile them all and check their schemas. */
const made: { compile: () => ValidateFunction; schema: AnySchema }[] = [];

/** A validator for `schema` that compiles itself with `ajv` on its first call; `.errors` as ajv's. */
export function validatorOnFirstUse<T = unknown>(ajv: Ajv, schema: AnySchema): ValidateFunction<T> {
  let compiled: ValidateFunction<T> | undefined;
  const compile = () => (compiled ??= ajv.compile<T>(schema));
  const validate = ((data: unknown) => {
    const inner = compile();
    const isValid = inner(data);
    validate.errors = inner.errors ?? null;
    return isValid;
  }) as ValidateFunction<T>;
  made.push({ compile: compile as () => ValidateFunction, schema });
  return validate;
}

/** Compiles every validator made so far (tests: a schema ajv refuses throws here). */
export function compileEveryValidator(): number {
  for (const { compile } of made) compile();
  return made.length;
}

/** The schemas of every validator made so far (tests check them against the meta-schema). */
export function everyValidatorSchema(): AnySchema[] {
  return made.map(({ schema }) => schema);
}
