// The one way a route is called: by the dispatcher for an HTTP request, by the MCP tools for a tool
// call. It checks and parses the body against the route's own schema (one ajv, one code per
// failure: UNSUPPORTED_MEDIA_TYPE, PAYLOAD_TOO_LARGE, INVALID_JSON, VALIDATION_ERROR), validates
// the query (400), builds the handler's context and adds the request's warnings to the answer.
// Admission (keys, buckets) happens before, in admission.ts; errors are thrown as ApiError for the
// caller's funnel.

import { ApiError } from "../query/api-error.js";
import { requestValidator, validateParams, type ParamWarning } from "../query/params.js";
import { workCounts } from "../store/work-counts.js";
import type { RequestContext } from "./context.js";
import { withWarnings, type Reply } from "./reply.js";
import type { JsonSchema, RouteBody, RouteDefinition } from "./router.js";

/** A route's body from its schema, validated by the request path's one ajv (compiled on first use). */
export function routeBody<B>(schema: JsonSchema): RouteBody<B> {
  return { schema, validate: requestValidator<B>(schema) };
}

/** What the caller knows of a request; callRoute adds the validated values, warnings and body. */
export type RouteCall = Omit<RequestContext, "values" | "warnings" | "json"> & {
  /** The body cap the request's body went over (the adapter stopped reading), or undefined. */
  bodyOverLimit?: number | undefined;
};

/** Body (when the route takes one) → query → handler → the answer with the request's warnings. Throws ApiError. */
export function callRoute(route: RouteDefinition, call: RouteCall): Reply | Promise<Reply> {
  const json = route.body === undefined ? undefined : parsedBody(route.body, call);
  const warnings: ParamWarning[] = [];
  const values = validateParams(route.params, call.query, warnings);
  workCounts.handlerCalls++;
  const handled = route.handle({
    method: call.method, path: call.path, pathParams: call.pathParams, query: call.query, values, warnings, json,
    editions: call.editions, changes: call.changes, requestId: call.requestId, accept: call.accept ?? "", body: call.body, contentType: call.contentType, mcpHeaders: call.mcpHeaders,
    cached: call.cached, cachedReply: call.cachedReply, isAborted: call.isAborted, now: call.now, caller: call.caller,
  });
  return handled instanceof Promise ? handled.then((settled) => withWarnings(settled, warnings)) : withWarnings(handled, warnings);
}

/** The body as JSON of the route's shape, or the one error that says what is wrong with it. */
function parsedBody(body: RouteBody, call: RouteCall): unknown {
  if (!/^application\/json\s*(;|$)/i.test(call.contentType)) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", { contentType: call.contentType || null }, "The request body must be sent as Content-Type: application/json");
  }
  if (call.bodyOverLimit !== undefined) {
    throw new ApiError("PAYLOAD_TOO_LARGE", { limit: call.bodyOverLimit }, `The request body is larger than ${call.bodyOverLimit} bytes`);
  }
  let value: unknown;
  try {
    value = JSON.parse((call.body ?? Buffer.alloc(0)).toString("utf8"));
  } catch (error) {
    throw new ApiError("INVALID_JSON", { reason: (error as Error).message }, `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (!body.validate(value)) {
    // The first error only: no `allErrors` on client input (issue 40: a pattern never runs after a failed length).
    const errors = (body.validate.errors ?? []).map((error) => ({ path: error.instancePath || "/", message: error.message ?? "is invalid" }));
    throw new ApiError("VALIDATION_ERROR", { errors }, `The request body does not have the expected shape: ${errors.map((e) => `${e.path} ${e.message}`).join("; ")}`);
  }
  return value;
}
