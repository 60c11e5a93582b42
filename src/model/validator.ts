// ajv validators compiled on their first call rather than at import. A worker thread used to spend
// half its boot (~360 ms) in ajv's code generation for every route's schemas and the record
// schema, most of which a given worker never runs; now it compiles the ones its requests use, once.
// The schemas are still all compiled in the tests (test/model/validators.test.ts), so a schema
// strict mode refuses fails there, not on a server's first request.

import type { Ajv, AnySchema, ValidateFunction } from "ajv";

/** Every validator made here, so a test can compile them all. */
const made: (() => ValidateFunction)[] = [];

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
  made.push(compile as () => ValidateFunction);
  return validate;
}

/** Compiles every validator made so far (tests: a schema ajv refuses throws here). */
export function compileEveryValidator(): number {
  for (const compile of made) compile();
  return made.length;
}
