// POST /api/players/batch: resolve up to 100 names and/or slugs of the current edition.
// Names match ignoring case, accents and punctuation: an exact name gives every roster of that
// name in scope, otherwise a unique close match (the name index's prefix and typo tiers) does.

import { ERA_CODE, ERAS, type Era } from "../../model/eras.js";
import { foldName, slugify } from "../../model/names.js";
import { ApiError } from "../../query/api-error.js";
import { LENGTH_LIMITS } from "../../query/limits.js";
import { suggestSlugs } from "../../query/suggest.js";
import { compileParams, type ParamValues } from "../../query/params.js";
import { parseFields } from "../../query/player-params.js";
import { ALL_ERAS_MASK } from "../../query/plan.js";
import type { Edition } from "../../store/edition.js";
import { routeBody } from "../call-route.js";
import type { RequestContext } from "../context.js";
import type { Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { arrayOf, exactObject, integer, oneOf, playerRows, text } from "../describe/response-schemas.js";
import { playerPage } from "./player-rows.js";

export const MAX_IDENTIFIERS = 100;
/**
 * Longer identifiers are answered not_found without a lookup (docs/compatibility.md#fidelity-rules: the hosted service
 * answers them, so they are not a 400), which bounds a lookup's work as the length limit did.
 */
const MAX_IDENTIFIER_LENGTH = LENGTH_LIMITS.identifier;
const identifier = { type: "string" } as const;

/** docs/compatibility.md#fidelity-rules: unknown body keys are ignored, as the hosted service ignores them. */
export const batchBodySchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    names: { type: "array", items: identifier, description: "Player names; case, accents and punctuation are ignored" },
    slugs: { type: "array", items: identifier, description: "Player slugs (roster slugs or a name's own slug)" },
    teamType: { enum: [...ERAS, "all"], description: "Era scope, default every era" },
    fields: { type: "string", pattern: "^[A-Za-z_,\\s]*$", description: "Comma-separated fields to return (spaces and empty entries are ignored)" },
  },
} as const;

interface BatchBody {
  names?: string[];
  slugs?: string[];
  teamType?: Era | "all";
  fields?: string;
}

/** Validated by callRoute (the first error only: no `allErrors` on client input). */
const batchBody = routeBody<BatchBody>(batchBodySchema);

type Unmatched = { query: string; reason: "not_found" | "ambiguous" | "empty"; candidates?: string[] };

/** What the schema cannot say: at least one identifier, at most MAX_IDENTIFIERS. */
function checkedCount(request: BatchBody): BatchBody {
  const count = (request.names?.length ?? 0) + (request.slugs?.length ?? 0);
  if (count === 0) throw new ApiError("VALIDATION_ERROR", { errors: [{ path: "/", message: "must name at least one player in names or slugs" }] }, "Give at least one name or slug");
  if (count > MAX_IDENTIFIERS) throw new ApiError("TOO_MANY_IDENTIFIERS", { limit: MAX_IDENTIFIERS, requested: count }, `At most ${MAX_IDENTIFIERS} names and slugs per batch; this one has ${count}`);
  return request;
}

function inScope(edition: Edition, eraMask: number) {
  return (row: number) => (eraMask & (1 << (edition.payload.columns.era[row] as number))) !== 0;
}

/** docs/compatibility.md#fidelity-rules: an empty identifier is unmatched as `empty`, an over-long one `not_found`, both without a lookup. */
function unlookedUp(identifier: string): Unmatched | undefined {
  if (identifier.trim().length === 0) return { query: identifier, reason: "empty" };
  if (identifier.length > MAX_IDENTIFIER_LENGTH) return { query: identifier.slice(0, MAX_IDENTIFIER_LENGTH), reason: "not_found" };
  return undefined;
}

function resolveName(edition: Edition, name: string, eraMask: number): number[] | Unmatched {
  const refused = unlookedUp(name);
  if (refused !== undefined) return refused;
  const isInScope = inScope(edition, eraMask);
  const folded = foldName(name);
  const exact = edition.rowsWithFoldedName(folded).filter(isInScope);
  if (exact.length > 0) return exact;
  const { rows } = edition.nameIndex.search(name, eraMask, 20);
  const people = [...new Set(rows.map((row) => edition.foldedName(row)))];
  if (people.length === 1) return edition.rowsWithFoldedName(people[0] as string).filter(isInScope);
  if (people.length === 0) return { query: name, reason: "not_found" };
  return { query: name, reason: "ambiguous", candidates: [...new Set(rows.map((row) => edition.field(row, "name") as string))].slice(0, 5) };
}

function resolveSlug(edition: Edition, slug: string, eraMask: number): number[] | Unmatched {
  const refused = unlookedUp(slug);
  if (refused !== undefined) return refused;
  const wanted = slugify(slug);
  const rows = edition.rowsForSlug(wanted, eraMask);
  if (rows.length > 0) return rows;
  const candidates = suggestSlugs(edition, wanted, 3);
  return { query: slug, reason: "not_found", ...(candidates.length > 0 ? { candidates } : {}) };
}

function batch(context: RequestContext<ParamValues, BatchBody>): Reply {
  const request = checkedCount(context.json);
  const fieldMask = parseFields(request.fields);
  const edition = context.editions.current;
  const scope = request.teamType ?? "all";
  const eraMask = scope === "all" ? ALL_ERAS_MASK : 1 << ERA_CODE[scope];
  const seen = new Set<number>();
  const rows: number[] = [];
  const unmatched: Unmatched[] = [];
  let resolved = 0;
  const take = (result: number[] | Unmatched) => {
    if (!Array.isArray(result)) {
      unmatched.push(result);
      return;
    }
    resolved += 1;
    for (const row of result) {
      if (seen.has(row)) continue;
      seen.add(row);
      rows.push(row);
    }
  };
  for (const name of request.names ?? []) take(resolveName(edition, name, eraMask));
  for (const slug of request.slugs ?? []) take(resolveSlug(edition, slug, eraMask));
  const requested = (request.names?.length ?? 0) + (request.slugs?.length ?? 0);
  // meta.matched is the rows returned, as the hosted service counts it; resolved (ours) the identifiers that found someone.
  // A POST answer is not revalidated: no key, no ETag.
  return playerPage(edition, rows, { fieldMask, isVersioned: false }, { requested, matched: rows.length, resolved, count: rows.length, unmatched }, undefined);
}

export const batchRoutes: RouteDefinition[] = [
  {
    method: "POST", path: "/api/players/batch", access: "key", params: compileParams({}, { ignoresUnknown: true }), body: batchBody, errors: ["INVALID_JSON", "TOO_MANY_IDENTIFIERS"],
    summary: "Resolve up to 100 names and/or slugs in one call",
    response: {
      kind: "envelope",
      description: "The resolved players in request order, without duplicates",
      data: playerRows,
      meta: exactObject({
        requested: integer("Identifiers sent"),
        matched: integer("Players returned, as the hosted service counts them"),
        resolved: integer("Identifiers that found someone (a name may resolve to several rosters)"),
        count: integer("Players returned"),
        unmatched: arrayOf(exactObject({
          query: text("The name or slug as sent (an over-long one cut to 100 characters)"),
          reason: oneOf(["not_found", "ambiguous", "empty"]),
          candidates: arrayOf({ type: "string" }, "The closest names (ambiguous) or slugs (not found)"),
        }, ["candidates"])),
      }),
    },
    handle: batch,
  },
];
