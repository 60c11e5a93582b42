// The badge routes of one edition (current, or `gameVersion=`): the catalogue with holder counts,
// its categories, one badge, and one badge's holders (best tier first, then overall desc, then
// name) sliced from the holder runs precomputed at load (store/badge-holders.ts).

import {
  BADGES, BADGE_CATEGORIES, BADGE_INDEX_BY_FOLDED_NAME, BADGE_INDEX_BY_SLUG, BADGE_TIERS, LEGACY_BADGE_CATEGORIES, TIER_CODE, badgeId,
  type BadgeDefinition, type BadgeTier,
} from "../../model/badges.js";
import { compareText } from "../../model/badge-summary.js";
import { ERAS, isEra } from "../../model/eras.js";
import { ApiError, invalidParameter } from "../../query/api-error.js";
import { closest } from "../../query/suggest.js";
import { compileParams, CURSOR_PARAM, limitParam, paramWarning, type ParamSchema } from "../../query/params.js";
import { groupOfTierCode, holderCounts, holderRange, type BadgeHolders } from "../../store/badge-holders.js";
import type { Edition } from "../../store/edition.js";
import { FIELD_BIT } from "../../store/fragments.js";
import type { RequestContext } from "../context.js";
import { successReply, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { arrayOf, cursorPagination, era, exactObject, gameVersion, integer, ref, text } from "../response-schemas.js";
import { resolveEdition } from "./edition-param.js";
import { rowObjectsReply } from "./player-ref.js";
import { cursorPaging } from "./players.js";

/** `,"badgeTier":"Gold"` by tier code (index 0 unused: holders hold a tier). */
const TIER_FIELD: readonly string[] = ["", ...BADGE_TIERS.map((tier) => `,"badgeTier":${JSON.stringify(tier)}`)];
const HOLDER_MASK = (["_id", "name", "slug", "team", "teamType", "overall", "playerImage"] as const).reduce((mask, field) => mask | FIELD_BIT[field], 0);

const gameVersionParam: ParamSchema = {
  type: "string", pattern: "^2[Kk]\\d{2}$", description: "Edition key (2K26, any case); default the current edition",
  "x-reason": "must be 2K followed by two digits, e.g. 2K26",
};
/** Categories by lower-case name; our names from before CONTRACT §9 (`shooting`) still lead to theirs. */
const CATEGORY_BY_LOWER: ReadonlyMap<string, string> = new Map([
  ...BADGE_CATEGORIES.map((category) => [category.toLowerCase(), category] as const),
  ...Object.entries(LEGACY_BADGE_CATEGORIES).map(([legacy, category]) => [legacy.toLowerCase(), category] as const),
]);

// CONTRACT §9: the four badge routes ignore unknown parameters, and an unknown category or tier
// matches nothing (a 200 with an empty list and a warning), as the hosted service answers them.
const listParams = compileParams({
  gameVersion: gameVersionParam,
  category: {
    type: "string", enum: [...CATEGORY_BY_LOWER.keys()], description: `Badge category: ${BADGE_CATEGORIES.join(", ")}; any case (another matches nothing, with a warning)`,
    "x-normalise": "lower", "x-lenient": true,
  },
}, { ignoresUnknown: true });
const oneParams = compileParams({ gameVersion: gameVersionParam }, { ignoresUnknown: true });
const holdersParams = compileParams({
  gameVersion: gameVersionParam,
  tier: {
    type: "string", enum: BADGE_TIERS, description: "Only holders of this tier (Hall of Fame, hall-of-fame, hallOfFame, any case; another matches nothing, with a warning)",
    "x-normalise": "badgeTier", "x-lenient": true,
  },
  teamType: { type: "string", enum: ERAS, description: "curr, class or allt; omitted: every era", "x-normalise": "lower" },
  limit: limitParam(100, 50),
  cursor: CURSOR_PARAM,
}, { ignoresUnknown: true });

/** The edition asked for, with its holder runs; 400 naming the edition when it keeps no badge lists. */
function badgeEdition(context: RequestContext): { edition: Edition; holders: BadgeHolders } {
  const asked = context.values.gameVersion;
  const edition = typeof asked === "string" ? resolveEdition(context.editions, asked) : context.editions.current;
  const holders = edition.badgeHolders;
  if (holders === null) {
    throw invalidParameter(
      "gameVersion", edition.key,
      `${edition.key} keeps badge counts and the top three badges only, not badge lists, so it cannot answer the badge routes; use an edition with lists (${context.editions.ordered.filter((e) => e.hasBadgeLists).map((e) => e.key).join(", ") || "none loaded"})`,
    );
  }
  return { edition, holders };
}

/** A badge by slug, any case, or by its name written any way; 404 BADGE_NOT_FOUND with the closest slugs. */
function badgeIndex(text: string): number {
  const index = BADGE_INDEX_BY_SLUG.get(text.toLowerCase()) ?? BADGE_INDEX_BY_FOLDED_NAME.get(text.toLowerCase().replace(/[^a-z]/g, ""));
  if (index !== undefined) return index;
  const suggestions = closest(text.toLowerCase(), BADGES.map((badge) => badge.slug), 3);
  throw new ApiError(
    "BADGE_NOT_FOUND",
    { badge: text.slice(0, 100), suggestions, hint: "GET /api/badges lists every badge slug" },
    `No badge ${text.slice(0, 100)}${suggestions.length > 0 ? `; did you mean ${suggestions.join(", ")}?` : ""}`,
  );
}

/** A badge document: the hosted service's fields (`_id`, `gameVersion`, `lastUpdated`, `createdAt`) and our holder counts. */
function badgeObject(edition: Edition, holders: BadgeHolders, badge: BadgeDefinition, index: number): Record<string, unknown> {
  const { capturedAt } = edition.payload.meta;
  return {
    _id: badgeId(badge.slug), name: badge.name, slug: badge.slug, category: badge.category, description: badge.description,
    gameVersion: edition.key, lastUpdated: capturedAt, createdAt: capturedAt, holders: holderCounts(holders, index),
  };
}

/** Catalogue positions sorted by category, then name. */
const BY_CATEGORY_THEN_NAME: readonly number[] = BADGES.map((_, i) => i)
  .sort((a, b) => compareText((BADGES[a] as BadgeDefinition).category, (BADGES[b] as BadgeDefinition).category) || compareText((BADGES[a] as BadgeDefinition).name, (BADGES[b] as BadgeDefinition).name));

function listBadges(context: RequestContext): Reply {
  const { edition, holders } = badgeEdition(context);
  const asked = typeof context.values.category === "string" ? context.values.category : undefined;
  // An unknown category (warned of when validated) lists nothing.
  const category = asked === undefined ? undefined : (CATEGORY_BY_LOWER.get(asked) ?? null);
  return context.cached(`badges|${edition.checksum}|${category === null ? "\u0000none" : (category ?? "")}`, () => {
    const data = BY_CATEGORY_THEN_NAME
      .filter((i) => category === undefined || (BADGES[i] as BadgeDefinition).category === category)
      .map((i) => badgeObject(edition, holders, BADGES[i] as BadgeDefinition, i));
    return successReply(data, { gameVersion: edition.key, count: data.length, ...(asked !== undefined ? { category: category ?? asked } : {}) }, { isCacheable: true });
  });
}

function listCategories(context: RequestContext): Reply {
  const { edition } = badgeEdition(context);
  return context.cached(`badge-categories|${edition.checksum}`, () => {
    const data = [...BADGE_CATEGORIES].sort(compareText).map((category) => ({ category, count: BADGES.filter((badge) => badge.category === category).length }));
    return successReply(data, { gameVersion: edition.key, count: data.length }, { isCacheable: true });
  });
}

function oneBadge(context: RequestContext): Reply {
  const { edition, holders } = badgeEdition(context);
  const index = badgeIndex(context.pathParams.slug ?? "");
  return context.cached(`badge|${edition.checksum}|${index}`, () =>
    successReply(badgeObject(edition, holders, BADGES[index] as BadgeDefinition, index), { gameVersion: edition.key }, { isCacheable: true }));
}

/** CONTRACT §9: the holders of an unknown badge are no one (200, `data: []`, a warning naming the closest badges). */
function noHolders(context: RequestContext, edition: Edition, slug: string, limit: number, offset: number): Reply {
  context.warnings.push(paramWarning("slug", slug, `${slug.slice(0, 100)} is not a badge: nobody holds it`, closest(slug.toLowerCase(), BADGES.map((badge) => badge.slug), 3)));
  return successReply([], {
    gameVersion: edition.key, badge: slug.slice(0, 100), tier: typeof context.values.tier === "string" ? context.values.tier : "all",
    count: 0, pagination: cursorPaging(offset, 0, limit, 0),
  }, { isCacheable: true });
}

function badgeHolders(context: RequestContext): Reply {
  const { edition, holders } = badgeEdition(context);
  const limit = (context.values.limit as number | undefined) ?? 50;
  const offset = Number(context.values.cursor ?? 0);
  const slug = context.pathParams.slug ?? "";
  let index: number;
  try {
    index = badgeIndex(slug);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "BADGE_NOT_FOUND") throw error;
    return noHolders(context, edition, slug, limit, offset);
  }
  const asked = typeof context.values.tier === "string" ? context.values.tier : undefined;
  // An unknown tier (warned of when validated) is held by no one.
  const isUnknownTier = asked !== undefined && !TIER_CODE.has(asked as BadgeTier);
  const tier = asked as BadgeTier | undefined;
  const era = typeof context.values.teamType === "string" && isEra(context.values.teamType) ? context.values.teamType : undefined;
  return context.cached(`badge-holders|${edition.checksum}|${index}|${tier ?? ""}|${era ?? ""}|${limit}|${offset}`, () => {
    const group = tier === undefined || isUnknownTier ? undefined : groupOfTierCode(TIER_CODE.get(tier) as number);
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
    return rowObjectsReply(edition, page, HOLDER_MASK, {
      inside: (k) => TIER_FIELD[tierCodes[(page[k] as number) * BADGES.length + index] as number] as string,
    }, {
      gameVersion: edition.key,
      badge: (BADGES[index] as BadgeDefinition).slug,
      tier: tier ?? "all",
      ...(era ? { teamType: era } : {}),
      count: page.length,
      pagination: cursorPaging(offset, page.length, limit, total),
    }, { isCacheable: true });
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
