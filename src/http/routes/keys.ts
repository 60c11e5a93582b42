// Keys without the command line (docs/operations.md#keys-without-the-command-line): POST /api/register, GET /api/dashboard/usage,
// POST /api/keys/regenerate, DELETE /api/keys/current. Writes go through a KeyWriter and answer
// asynchronously; the usage read is synchronous. A key appears in a body only when just issued.

import { hasUnprintable } from "../../text/printable.js";
import type { KeyOutcome, KeyWriter } from "../../keys/key-writer.js";
import { ApiError, GET_A_KEY } from "../../query/api-error.js";
import { compileParams, type ParamValues } from "../../query/params.js";
import type { TakeResult } from "../../limits/token-buckets.js";
import { routeBody } from "../call-route.js";
import type { VerifiedKey } from "../context.js";
import type { RequestContext } from "../context.js";
import { jsonReply, type Reply } from "../reply.js";
import type { RouteDefinition, JsonSchema, RouteResponse } from "../router.js";
import { arrayOf, exactObject, integer, oneOf, text, timestamp } from "../describe/response-schemas.js";
import type { UsageSource, UsageSummary } from "../../limits/usage-rings.js";
import { EMAIL_SHAPE, MAX_ACTIVE_KEYS_PER_EMAIL, type KeyInfo } from "../../keys/key-records.js";

/** What the key routes need from the running service. */
export interface KeyServices {
  readonly registry: { info(slot: number): KeyInfo | undefined };
  readonly writer: KeyWriter;
  readonly usage: UsageSource;
  /** REGISTRATION=open; closed makes POST /api/register a 403 REGISTRATION_CLOSED. */
  readonly isRegistrationOpen: boolean;
}

export const REGISTER_PATH = "/api/register";
export const USAGE_PATH = "/api/dashboard/usage";
export const REGENERATE_PATH = "/api/keys/regenerate";
export const CURRENT_KEY_PATH = "/api/keys/current";

/** Characters of a key shown back to its holder (`2k_` and four more), enough to tell keys apart. */
const PREFIX_LENGTH = 7;

export const registerBodySchema = {
  type: "object",
  additionalProperties: false,
  required: ["email", "name"],
  properties: {
    email: { type: "string", minLength: 3, maxLength: 254, pattern: EMAIL_SHAPE.source, description: "Where the key's holder can be reached; at most 3 active keys per address (any case)" },
    name: { type: "string", minLength: 1, maxLength: 100, pattern: "\\S", description: "The holder's or the application's name" },
    purpose: { type: "string", maxLength: 500, description: "What the key is for (optional)" },
  },
} as const;

interface RegisterBody {
  email: string;
  name: string;
  purpose?: string;
}

/**
 * Validated by callRoute with the first error only (no `allErrors`): ajv checks a string's length
 * before its pattern and stops at the first failure, so the e-mail pattern never runs over more than
 * 254 characters (with `allErrors` it ran over a 64 KiB body's address after the length had failed: issue 40).
 */
const registerBody = routeBody<RegisterBody>(registerBodySchema);

/** What the schema cannot say: nothing printed or shown later may hide an escape sequence. */
function checkedRegisterBody(value: RegisterBody): RegisterBody {
  // Printed by the keys command and shown on dashboards: no escape sequence, newline or invisible character.
  const unprintable = (["email", "name", "purpose"] as const).filter((field) => hasUnprintable(value[field] ?? ""));
  if (unprintable.length > 0) {
    const errors = unprintable.map((field) => ({ path: `/${field}`, message: "must not contain control or invisible characters" }));
    throw new ApiError("VALIDATION_ERROR", { errors }, `The request body does not have the expected shape: ${errors.map((e) => `${e.path} ${e.message}`).join("; ")}`);
  }
  return value;
}

/** A refusal as the API says it; a store failure is not the client's doing and becomes a logged 500. */
function refusal(outcome: Extract<KeyOutcome, { kind: "refused" }>): Error {
  switch (outcome.failure) {
    case "limit":
      return new ApiError("KEY_LIMIT_EXCEEDED", { limit: MAX_ACTIVE_KEYS_PER_EMAIL }, `This e-mail address already holds ${MAX_ACTIVE_KEYS_PER_EMAIL} active keys, the most allowed; revoke one first`);
    case "invalid":
      return new ApiError("VALIDATION_ERROR", { errors: [{ path: "/", message: outcome.message }] }, outcome.message);
    case "unknown-key":
    case "revoked":
      // The key verified on admission, then another request regenerated or revoked it first.
      return new ApiError("INVALID_API_KEY", undefined, `The API key was regenerated or revoked by another request. ${GET_A_KEY}`);
    case "store":
      return new Error(`key store: ${outcome.message}`);
    case "full":
      return new ApiError("SERVICE_UNAVAILABLE", { reason: "key store full" }, "No key can be created: the key store holds the most key records it can; ask the operator");
    case "unavailable":
      // REDIS_URL and Redis unreachable: refused rather than written where other replicas cannot see it.
      return new ApiError("SERVICE_UNAVAILABLE", { reason: "key store unreachable" }, "Keys cannot be created or changed right now (the shared key store is unreachable); retry in a few seconds");
  }
}

/** The verified caller of a keyed route: admission guarantees one. */
function callerOf(context: RequestContext): { key: VerifiedKey; presentedKey: string; result: TakeResult } {
  const caller = context.caller;
  if (caller?.key === undefined || caller.presentedKey === undefined) throw new Error("a keyed route ran without a verified key");
  return { key: caller.key, presentedKey: caller.presentedKey, result: caller.result };
}

function created(data: Record<string, unknown>): Reply {
  return jsonReply(201, { success: true, data });
}

const keyPrefix = text("The key's first 7 characters (`2k_` and four more), to tell keys apart");
const issuedKey = (description: string): RouteResponse => ({
  kind: "envelope",
  status: 201,
  description,
  data: exactObject({
    apiKey: { type: "string", pattern: "^2k_[a-z0-9]{32}$", description: "The key: shown only this once (the server keeps its SHA-256 digest)" },
    rateLimit: integer("Requests per hour"),
    message: text("A reminder to store the key now"),
  }),
});
const usageData: JsonSchema = exactObject({
  apiKey: exactObject({
    prefix: keyPrefix, email: text("The holder's e-mail"), name: text("The holder's name"),
    createdAt: timestamp("When the key was issued"), rateLimit: integer("Requests per hour"),
  }, ["name"]),
  remaining: integer("Tokens left in the key's bucket after this request"),
  resetAt: timestamp("When the bucket is full again"),
  totalRequests: integer("Requests made with this key before this one, over every worker"),
  lastRequest: { type: ["string", "null"], format: "date-time", description: "When the last of them was made; null before the first" },
  requestCount: integer("Requests counted in the current window: the tokens taken from a full bucket (the hosted service's field)"),
  rateLimit: integer("Requests per hour (the hosted service's field)"),
  requestsRemaining: integer("Requests left now (the hosted service's field; the same as remaining)"),
  recentRequests: {
    ...arrayOf(exactObject({
      endpoint: text("Route template, e.g. /api/players/slug/:slug"),
      method: oneOf(["GET", "HEAD", "POST", "DELETE", "OTHER"]),
      statusCode: integer("HTTP status answered"),
      responseTime: { type: "number", description: "Milliseconds" },
      timestamp: timestamp("When it was answered"),
    }), "The last ten, newest first"),
    maxItems: 10,
  },
});

export function keyRoutes(services: KeyServices | undefined): RouteDefinition[] {
  // Without services (the route table built only to be described) the handlers cannot run.
  const need = (): KeyServices => {
    if (services === undefined) throw new Error("key routes built without key services");
    return services;
  };

  async function register(context: RequestContext<ParamValues, RegisterBody>): Promise<Reply> {
    const { isRegistrationOpen, writer } = need();
    if (!isRegistrationOpen) throw new ApiError("REGISTRATION_CLOSED");
    const body = checkedRegisterBody(context.json);
    const outcome = await writer.apply({
      kind: "register", email: body.email, name: body.name, now: new Date(context.now).toISOString(),
      ...(body.purpose === undefined ? {} : { purpose: body.purpose }),
    });
    if (outcome.kind === "refused") throw refusal(outcome);
    if (outcome.kind !== "issued") throw new Error(`register answered ${outcome.kind}`);
    return created({
      apiKey: outcome.key,
      rateLimit: outcome.record.rateLimit,
      message: "Store this key now: it is shown only this once (the server keeps only its SHA-256 digest). Send it in the X-API-Key header.",
    });
  }

  function usage(context: RequestContext): Reply | Promise<Reply> {
    const { registry, usage: source } = need();
    const caller = callerOf(context);
    const record = registry.info(caller.key.slot);
    if (record === undefined) throw new Error(`no record in slot ${caller.key.slot}`);
    const resetAt = new Date((Math.ceil(context.now / 1000) + caller.result.resetSeconds) * 1000).toISOString();
    const usageReply = (read: UsageSummary): Reply => ({
      ...jsonReply(200, {
        success: true,
        data: {
          apiKey: {
            prefix: caller.presentedKey.slice(0, PREFIX_LENGTH),
            email: record.email,
            ...(record.name === undefined ? {} : { name: record.name }),
            createdAt: record.createdAt,
            rateLimit: record.rateLimit,
          },
          remaining: caller.result.remaining,
          resetAt,
          ...read,
          // The hosted service's three (docs/compatibility.md#fidelity-rules): requests counted in the current window (the
          // tokens taken from a full bucket), the limit, and what is left.
          requestCount: Math.max(0, record.rateLimit - caller.result.remaining),
          rateLimit: record.rateLimit,
          requestsRemaining: caller.result.remaining,
        },
        meta: {},
      }),
      cacheControl: "private, no-store",
    });
    // With REDIS_URL the usage of every replica comes from Redis; without it, at once from memory.
    const summary = source.read(caller.key.slot);
    return summary instanceof Promise ? summary.then(usageReply) : usageReply(summary);
  }

  async function regenerate(context: RequestContext): Promise<Reply> {
    const caller = callerOf(context);
    const outcome = await need().writer.apply({ kind: "regenerate", key: caller.presentedKey, now: new Date(context.now).toISOString() });
    if (outcome.kind === "refused") throw refusal(outcome);
    if (outcome.kind !== "issued") throw new Error(`regenerate answered ${outcome.kind}`);
    return created({
      apiKey: outcome.key,
      rateLimit: outcome.record.rateLimit,
      message: "Store this key now: it is shown only this once. The old key no longer works.",
    });
  }

  async function revoke(context: RequestContext): Promise<Reply> {
    const caller = callerOf(context);
    const outcome = await need().writer.apply({ kind: "revoke", key: caller.presentedKey, now: new Date(context.now).toISOString() });
    if (outcome.kind === "refused") throw refusal(outcome);
    if (outcome.kind !== "revoked") throw new Error(`revoke answered ${outcome.kind}`);
    return jsonReply(200, {
      success: true,
      data: { revoked: true, prefix: caller.presentedKey.slice(0, PREFIX_LENGTH), revokedAt: outcome.record.revokedAt },
    });
  }

  const noParams = compileParams({});
  // docs/compatibility.md#fidelity-rules: the hosted service ignores unknown parameters on the usage route.
  const usageParams = compileParams({}, { ignoresUnknown: true });
  return [
    {
      method: "POST", path: REGISTER_PATH, access: "registration", params: noParams, body: registerBody,
      summary: "Register for an API key (no key; 5 registrations per client address per hour)",
      response: issuedKey("A new key for this e-mail address (free tier)"),
      handle: register,
    },
    {
      method: "GET", path: USAGE_PATH, access: "key", isOwnerAction: true, params: usageParams, summary: "Your key's usage: remaining, totals and the last ten requests",
      response: {
        kind: "envelope",
        description: "The key's holder, what is left of its rate limit, and its recent requests (never their query strings). `Cache-Control: private, no-store`",
        data: usageData,
        meta: exactObject({}),
      },
      handle: usage,
    },
    {
      method: "POST", path: REGENERATE_PATH, access: "key", isOwnerAction: true, params: noParams, summary: "Replace your key by a new one; the old one stops working at once",
      response: issuedKey("The key's replacement: same e-mail, name and limit; the old key is refused from now on"),
      handle: regenerate,
    },
    {
      method: "DELETE", path: CURRENT_KEY_PATH, access: "key", isOwnerAction: true, params: noParams, summary: "Revoke your key",
      response: {
        kind: "envelope",
        description: "The key is revoked and refused from now on",
        data: exactObject({ revoked: { const: true }, prefix: keyPrefix, revokedAt: timestamp("When it was revoked") }),
      },
      handle: revoke,
    },
  ];
}
