// The badge routes of one edition (current, or `gameVersion=`): its badge catalogue (the badges
// its data holds, model/catalogue.ts) with holder counts, its categories, one badge, and one
// badge's holders (best tier first, then overall desc, then name) sliced from the holder runs
// precomputed at build time (store/badge-holders.ts).

import { BADGE_CATEGORIES, BADGE_TIERS, LEGACY_BADGE_CATEGORIES, TIER_CODE, badgeId } from "../../model/badges.js";
import type { Catalogue, CatalogueBadge } from "../../model/catalogue.js";
import { compareText } from "../../model/badge-summary.js";
import { ERAS } from "../../model/eras.js";
import { ApiError, invalidParameter } from "../../query/api-error.js";
import { closest } from "../../query/suggest.js";
import { compileParams, CURSOR_PARAM, limitParam, paramWarning, type ParamSchema, type ValuesOf } from "../../query/params.js";
import { groupOfTierCode, holderCounts, holderRange, type BadgeHolders } from "../../store/badge-holders.js";
import type { Edition } from "../../store/edition.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { dataSourceMeta, successReply, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { arrayOf, cursorPagination, era, exactObject, gameVersion, integer, ref, text } from "../describe/response-schemas.js";
import { resolveEdition } from "./edition-param.js";
import { FragmentBody } from "../fragment-body.js";
import type { RowShape } from "../../store/fragments.js";
import { FIELD_BIT } from "../../model/player.js";
import { cursorPaging } from "./player-rows.js";

/** A tier's code by any name a client may send (a name that is no tier finds none). */
const TIER_BY_NAME: ReadonlyMap<string, number> = TIER_CODE;
/** `,"badgeTier":"Gold"` by tier code (index 0 unused: holders hold a tier). */
const TIER_FIELD: readonly string[] = ["", ...BADGE_TIERS.map((tier) => `,"badgeTier":${JSON.stringify(tier)}`)];
const HOLDER_SHAPE: RowShape = { fieldMask: (["_id", "name", "slug", "team", "teamType", "overall", "playerImage"] as const).reduce((mask, field) => mask | FIELD_BIT[field], 0), isVersioned: false };
/** Bumped when a holders page renders the same rows differently (its ETag then changes with it). */
const HOLDERS_RENDER_VERSION = 1;

const gameVersionParam = {
  type: "string", pattern: "^2[Kk]\\d{2}$", description: "Edition key (2K26, any case); default the current edition",
  "x-reason": "must be 2K followed by two digits, e.g. 2K26",
} as const satisfies ParamSchema;
/**
 * The edition's category named by `asked` (lower-cased), or undefined: any case, and our names from
 * before docs/compatibility.md#fidelity-rules (`shooting`) still lead to theirs.
 */
function categoryOf(catalogue: Catalogue, asked: string): string | undefined {
  const legacy = Object.entries(LEGACY_BADGE_CATEGORIES).find(([name]) => name.toLowerCase() === asked)?.[1];
  return catalogue.categories.find((category) => category.toLowerCase() === asked || category === legacy);
}

// docs/compatibility.md#fidelity-rules: the four badge routes ignore unknown parameters, and an unknown category or tier
// matches nothing (a 200 with an empty list and a warning), as the hosted service answers them.
const listSchemas = {
  gameVersion: gameVersionParam,
  category: {
    type: "string", maxLength: 100,
    description: `Badge category, one of the edition's (the demo's: ${BADGE_CATEGORIES.join(", ")}; GET /api/badges/categories lists them); any case (another matches nothing, with a warning)`,
    "x-normalise": "lower",
  },
} as const;
const listParams = compileParams(listSchemas, { ignoresUnknown: true });
const oneSchemas = { gameVersion: gameVersionParam } as const;
const oneParams = compileParams(oneSchemas, { ignoresUnknown: true });
const holdersSchemas = {
  gameVersion: gameVersionParam,
  tier: {
    type: "string", enum: BADGE_TIERS, description: "Only holders of this tier (Hall of Fame, hall-of-fame, hallOfFame, any case; another matches nothing, with a warning)",
    "x-normalise": "badgeTier", "x-lenient": true,
  },
  teamType: { type: "string", enum: ERAS, description: "curr, class or allt; omitted: every era", "x-normalise": "lower" },
  limit: limitParam(100, 50),
  cursor: CURSOR_PARAM,
} as const;
const holdersParams = compileParams(holdersSchemas, { ignoresUnknown: true });

/** The edition asked for, with its holder runs; 400 naming the edition when it keeps no badge lists. */
function badgeEdition(context: RequestContext<{ readonly gameVersion?: string }>): { edition: Edition; holders: BadgeHolders } {
  const asked = context.values.gameVersion;
  const edition = asked === undefined ? context.editions.current : resolveEdition(context.editions, asked);
  const holders = edition.badgeHolders;
  if (holders === null) {
    throw invalidParameter(
      "gameVersion", edition.key,
      `${edition.key} keeps badge counts and the top three badges only, not badge lists, so it cannot answer the badge routes; use an edition with lists (${context.editions.ordered.filter((e) => e.hasBadgeLists).map((e) => e.key).join(", ") || "none loaded"})`,
    );
  }
  return { edition, holders };
}

/** The edition's badge slugs (what suggestions are drawn from). */
function slugsOf(catalogue: Catalogue): string[] {
  return catalogue.badges.map((badge) => badge.slug);
}

/** A badge of the edition by slug, any case, or by its name written any way; 404 BADGE_NOT_FOUND with the closest slugs. */
function badgeIndex(edition: Edition, text: string): number {
  const index = edition.catalogue.badgeOf(text);
  if (index !== undefined) return index;
  const suggestions = closest(text.toLowerCase(), slugsOf(edition.catalogue), 3);
  throw new ApiError(
    "BADGE_NOT_FOUND",
    { badge: text.slice(0, 100), gameVersion: edition.key, suggestions, hint: "GET /api/badges lists every badge slug of the edition" },
    `No badge ${text.slice(0, 100)} in ${edition.key}${suggestions.length > 0 ? `; did you mean ${suggestions.join(", ")}?` : ""}`,
  );
}

/** A badge document: the hosted service's fields (`_id`, `gameVersion`, `lastUpdated`, `createdAt`, `imageUrl` where the source gave one) and our holder counts. */
function badgeObject(edition: Edition, holders: BadgeHolders, badge: CatalogueBadge, index: number): Record<string, unknown> {
  const { capturedAt } = edition.payload.meta;
  return {
    _id: badgeId(badge.slug), name: badge.name, slug: badge.slug, category: badge.category, description: badge.description,
    ...(badge.imageUrl === undefined ? {} : { imageUrl: badge.imageUrl }),
    gameVersion: edition.key, lastUpdated: capturedAt, createdAt: capturedAt, holders: holderCounts(holders, index),
  };
}

/** The edition's badge positions sorted by category, then name. */
function byCategoryThenName(catalogue: Catalogue): number[] {
  const { badges } = catalogue;
  return badges.map((_, i) => i)
    .sort((a, b) => compareText((badges[a] as CatalogueBadge).category, (badges[b] as CatalogueBadge).category) || compareText((badges[a] as CatalogueBadge).name, (badges[b] as CatalogueBadge).name));
}

function listBadges(context: RequestContext<ValuesOf<typeof listSchemas>>): Reply {
  const { edition, holders } = badgeEdition(context);
  const { catalogue } = edition;
  const asked = context.values.category;
  const category = asked === undefined ? undefined : categoryOf(catalogue, asked);
  // docs/compatibility.md#fidelity-rules: a category the edition lacks lists nothing, with a warning naming the closest.
  if (asked !== undefined && category === undefined) {
    context.warnings.push(paramWarning("category", asked, `${asked.slice(0, 100)} is not a badge category of ${edition.key}: nothing matches it`, closest(asked, catalogue.categories.map((name) => name.toLowerCase()), 3)));
  }
  // Keyed by the category as asked too: an unknown one is echoed in meta.category as asked.
  return context.cached(cacheKey("/api/badges", edition, [category, asked]), () => {
    const data = asked !== undefined && category === undefined ? [] : byCategoryThenName(catalogue)
      .filter((i) => category === undefined || (catalogue.badges[i] as CatalogueBadge).category === category)
      .map((i) => badgeObject(edition, holders, catalogue.badges[i] as CatalogueBadge, i));
    return successReply(data, { gameVersion: edition.key, count: data.length, ...(asked !== undefined ? { category: category ?? asked } : {}), ...dataSourceMeta(edition) }, { isCacheable: true });
  });
}

function listCategories(context: RequestContext<ValuesOf<typeof oneSchemas>>): Reply {
  const { edition } = badgeEdition(context);
  const { catalogue } = edition;
  return context.cached(cacheKey("/api/badges/categories", edition, []), () => {
    const data = catalogue.categories.map((category) => ({ category, count: catalogue.badges.filter((badge) => badge.category === category).length }));
    return successReply(data, { gameVersion: edition.key, count: data.length, ...dataSourceMeta(edition) }, { isCacheable: true });
  });
}

function oneBadge(context: RequestContext<ValuesOf<typeof oneSchemas>>): Reply {
  const { edition, holders } = badgeEdition(context);
  const index = badgeIndex(edition, context.pathParams.slug ?? "");
  return context.cached(cacheKey("/api/badges/:slug", edition, [index]), () =>
    successReply(badgeObject(edition, holders, edition.catalogue.badges[index] as CatalogueBadge, index), { gameVersion: edition.key, ...dataSourceMeta(edition) }, { isCacheable: true }));
}

/** docs/compatibility.md#fidelity-rules: the holders of an unknown badge are no one (200, `data: []`, a warning naming the closest badges). */
function noHolders(context: RequestContext<ValuesOf<typeof holdersSchemas>>, edition: Edition, slug: string, limit: number, offset: number): Reply {
  context.warnings.push(paramWarning("slug", slug, `${slug.slice(0, 100)} is not a badge of ${edition.key}: nobody holds it`, closest(slug.toLowerCase(), slugsOf(edition.catalogue), 3)));
  return successReply([], {
    gameVersion: edition.key, badge: slug.slice(0, 100), tier: context.values.tier ?? "all",
    count: 0, pagination: cursorPaging(offset, 0, limit, 0), ...dataSourceMeta(edition),
  }, { isCacheable: true });
}

function badgeHolders(context: RequestContext<ValuesOf<typeof holdersSchemas>>): Reply {
  const { edition, holders } = badgeEdition(context);
  const { limit, cursor: offset, teamType: era } = context.values;
  const slug = context.pathParams.slug ?? "";
  let index: number;
  try {
    index = badgeIndex(edition, slug);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "BADGE_NOT_FOUND") throw error;
    return noHolders(context, edition, slug, limit, offset);
  }
  const tier = context.values.tier;
  // An unknown tier (warned of when validated; kept as sent) is held by no one.
  const tierCode = tier === undefined ? undefined : TIER_BY_NAME.get(tier);
  const isUnknownTier = tier !== undefined && tierCode === undefined;
  const key = cacheKey("/api/badges/:slug/players", edition, [index, tier, era, limit, offset]);
  return context.cached(key, () => {
    const group = tierCode === undefined ? undefined : groupOfTierCode(tierCode);
    const [start, end] = isUnknownTier ? [0, 0] : holderRange(holders, index, group);
    // The run is in answer order. Without an era the page is a slice of it; with one, rows of
    // other eras are skipped and every match is counted.
    let page: ArrayLike<number>;
    let total: number;
    if (era === undefined) {
      total = end - start;
      page = holders.rows.subarray(Math.min(end, start + offset), Math.min(end, start + offset + limit));
    } else {
      const [eraStart, eraEnd] = edition.eraRange(era);
      const kept: number[] = [];
      total = 0;
      for (let i = start; i < end; i++) {
        const row = holders.rows[i] as number;
        if (row < eraStart || row >= eraEnd) continue;
        if (total >= offset && kept.length < limit) kept.push(row);
        total++;
      }
      page = kept;
    }
    const tierCodes = edition.payload.columns.badgeTiers as Uint8Array;
    // Each holder's row with its tier added inside it: `{…row…,"badgeTier":"gold"}` (a row always has its _id: never `{}`).
    const body = new FragmentBody(edition.fragments).text('{"success":true,"data":[');
    for (let k = 0; k < page.length; k++) {
      const row = page[k] as number;
      body.text(k === 0 ? "" : ",").row(row, HOLDER_SHAPE, true).text(`${TIER_FIELD[tierCodes[row * edition.catalogue.badgeCount + index] as number] as string}}`);
    }
    const meta = {
      gameVersion: edition.key,
      badge: (edition.catalogue.badges[index] as CatalogueBadge).slug,
      tier: tier ?? "all",
      ...(era ? { teamType: era } : {}),
      count: page.length,
      pagination: cursorPaging(offset, page.length, limit, total),
      ...dataSourceMeta(edition),
    };
    return body.text(`],"meta":${JSON.stringify(meta)}}`).reply(key, HOLDERS_RENDER_VERSION);
  });
}

export const badgeRoutes: RouteDefinition[] = [
  {
    method: "GET", path: "/api/badges", access: "key", params: listParams, summary: "Every badge with its holders per tier, by category then name",
    response: {
      kind: "envelope",
      description: "Every badge with holders per tier, by category then name",
      data: arrayOf(ref("Badge")),
      meta: exactObject({ gameVersion, count: integer("Badges returned"), category: text("The category filter, when given (an unknown one as asked)") }, ["category"]),
    },
    handle: listBadges,
  },
  {
    method: "GET", path: "/api/badges/categories", access: "key", params: oneParams, summary: "Badge categories with how many badges each holds",
    response: {
      kind: "envelope",
      description: "Badge categories, by name",
      data: arrayOf(exactObject({ category: text("Category"), count: integer("Badges in it") })),
      meta: exactObject({ gameVersion, count: integer("Categories") }),
    },
    handle: listCategories,
  },
  {
    method: "GET", path: "/api/badges/:slug", access: "key", params: oneParams, summary: "One badge with its holders per tier",
    response: { kind: "envelope", description: "One badge", data: ref("Badge"), meta: exactObject({ gameVersion }) },
    errors: ["BADGE_NOT_FOUND"],
    handle: oneBadge,
  },
  {
    method: "GET", path: "/api/badges/:slug/players", access: "key", params: holdersParams, summary: "Holders of one badge: best tier first, then overall desc, then name",
    response: {
      kind: "envelope",
      description: "The badge's holders: best tier first, then overall desc, then name (an unknown badge: none)",
      data: arrayOf(ref("BadgeHolder")),
      meta: exactObject({
        gameVersion, badge: text("Badge slug (an unknown one as asked)"), tier: text("The tier filter (Bronze … Legendary, an unknown one as asked), or all"), teamType: era,
        count: integer("Rows on this page"), pagination: cursorPagination("Holders matching"),
      }, ["teamType"]),
    },
    handle: badgeHolders,
  },
];
