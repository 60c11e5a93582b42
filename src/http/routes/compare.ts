// GET /api/players/compare?ids=a,b[,c,d] (and under /api/versions/:version/): two to four players
// of one edition side by side. Every per-player list is in the order of `ids`; `best` and
// `leader` name positions in it (several on a tie); a player without a value has null there.

import { heldBadges } from "../../model/badge-summary.js";
import { BADGE_TIERS, type BadgeTier } from "../../model/badges.js";
import { ERAS } from "../../model/eras.js";
import { displayLabel } from "../../model/labels.js";
import { ALL_FIELDS_MASK, FIELD_BIT, type PlayerRecord } from "../../model/player.js";
import { invalidParameter } from "../../query/api-error.js";
import { attributeGroupsOf, attributeKeysOf, attributeValue, groupScores, OTHER_GROUP } from "../../store/attribute-profile.js";
import type { Edition } from "../../store/edition.js";
import type { EditionSet } from "../../store/editions.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import type { Reply } from "../reply.js";
import type { RouteDefinition, JsonSchema, RouteResponse } from "../router.js";
import { arrayOf, exactObject, gameVersion, integer, ref, text } from "../describe/response-schemas.js";
import { everyEditionRoutes, requestedEdition, type EveryEditionValues } from "./edition-param.js";
import { rowOfIdOrSlug } from "./player-ref.js";
import { FragmentBody } from "./fragment-body.js";
import { editionRatingsOf } from "./player-rows.js";

export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;
/** Long enough for four ids or slugs (slugs of classic rosters run to ~70 characters). */
const IDS_MAX_LENGTH = 4 * 120;

const baseParams = {
  ids: { type: "string", maxLength: IDS_MAX_LENGTH, description: `${COMPARE_MIN} to ${COMPARE_MAX} players' _ids or slugs, comma-separated, each once (required)` },
  teamType: { type: "string", enum: ERAS, description: "curr, class or allt: narrows every slug", "x-normalise": "lower" },
} as const;

/** The ids as given, checked for count and repeats (400 INVALID_PARAMETER). */
function parseIds(raw: string | undefined): string[] {
  const text = raw ?? "";
  const ids = text.split(",").map((id) => id.trim()).filter((id) => id.length > 0);
  if (ids.length < COMPARE_MIN || ids.length > COMPARE_MAX) {
    throw invalidParameter("ids", text, `must name ${COMPARE_MIN} to ${COMPARE_MAX} players (ids or slugs, comma-separated); got ${ids.length}`);
  }
  const folded = ids.map((id) => id.toLowerCase());
  const repeated = folded.find((id, i) => folded.indexOf(id) !== i);
  if (repeated !== undefined) throw invalidParameter("ids", text, `names ${repeated} twice; each player once`);
  return ids;
}

/** Per edition, each attribute column's fixed head in the answer: `{"attribute":…,"label":…,"group":…,"groupLabel":…,"values":`. */
const attributeHeads = new WeakMap<Edition, readonly string[]>();
function attributeHeadsOf(edition: Edition): readonly string[] {
  let heads = attributeHeads.get(edition);
  if (heads === undefined) {
    const groupOf = new Map(attributeGroupsOf(edition).flatMap(({ group, columns }) => columns.map((column) => [column, group] as const)));
    heads = attributeKeysOf(edition).map((attribute, column) => {
      const group = groupOf.get(column) ?? "groupScore";
      return JSON.stringify({ attribute, label: displayLabel(attribute), group, groupLabel: displayLabel(group), values: [] }).slice(0, -3);
    });
    attributeHeads.set(edition, heads);
  }
  return heads;
}

/** Positions of the highest values (all of them on a tie); none when nobody has a value. */
function bestOf(values: readonly (number | null)[]): number[] {
  let best = -Infinity;
  for (const value of values) if (value !== null && value > best) best = value;
  const positions: number[] = [];
  if (best !== -Infinity) for (let i = 0; i < values.length; i++) if (values[i] === best) positions.push(i);
  return positions;
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const TIER_RANK: ReadonlyMap<string, number> = new Map(BADGE_TIERS.map((tier, i) => [tier, i]));

function comparePlayers(context: RequestContext<EveryEditionValues<typeof baseParams>>): Reply {
  const edition = requestedEdition(context.editions, context.pathParams.version, context.values.gameVersion);
  const ids = parseIds(context.values.ids);
  const rows = ids.map((id) => rowOfIdOrSlug(edition, id, context.values.teamType));
  const twice = rows.find((row, i) => rows.indexOf(row) !== i);
  if (twice !== undefined) throw invalidParameter("ids", context.values.ids, `${ids[rows.indexOf(twice)]} and ${ids[rows.lastIndexOf(twice)]} are the same player; each player once`);
  // Rows of an edition other than the current one carry their gameVersion, as on the versioned routes.
  const isVersioned = context.pathParams.version !== undefined || edition !== context.editions.current;
  // The details join editions (editionRatings): keyed by every edition's data version.
  const key = cacheKey("/api/players/compare", context.editions.ordered, [edition.key, rows, isVersioned]);
  return context.cached(key, () => comparison(context.editions, edition, rows, isVersioned).text(`,"meta":{"gameVersion":${JSON.stringify(edition.key)},"count":${rows.length}}}`).reply(key, RENDER_VERSION));
}

/** Bumped when the answer is rendered differently from the same data (the ETag names key and rendering). */
const RENDER_VERSION = 1;
/** What the comparison reads of each record besides its columns (the badge list is most of it); the player itself is copied from its fragments. */
const READ_SHAPE = { fieldMask: FIELD_BIT._id | FIELD_BIT.overall | FIELD_BIT.badges | FIELD_BIT.hotZones | FIELD_BIT.ratingHistory, isVersioned: false };

/** `{"success":true,"data":{…}` (the caller adds meta): each player its row's bytes and its editionRatings, the rest written from the columns. */
function comparison(editions: EditionSet, edition: Edition, rows: readonly number[], isVersioned: boolean): FragmentBody {
  const records = rows.map((row) => JSON.parse(edition.fragments.rowJson(row, READ_SHAPE)) as Pick<PlayerRecord, "_id" | "overall" | "badges" | "hotZones" | "ratingHistory">);
  const body = new FragmentBody(edition.fragments).text('{"success":true,"data":{"players":[');
  const fullShape = { fieldMask: ALL_FIELDS_MASK, isVersioned };
  records.forEach((record, i) => {
    body.text(i === 0 ? "" : ",").row(rows[i] as number, fullShape, true)
      .text(`,"editionRatings":${JSON.stringify(editionRatingsOf(editions, record._id, record.ratingHistory))}}`);
  });
  const overalls = records.map((record) => record.overall);
  const keys = attributeKeysOf(edition);
  const groups = attributeGroupsOf(edition);

  // Every attribute at least one of them has: its fixed head (names, labels) written once per edition, then the values.
  const heads = attributeHeadsOf(edition);
  let attributes = "";
  const values: (number | null)[] = rows.map(() => null);
  for (let column = 0; column < keys.length; column++) {
    let held = 0;
    for (let i = 0; i < rows.length; i++) {
      const value = attributeValue(edition, rows[i] as number, column) ?? null;
      values[i] = value;
      if (value !== null) held++;
    }
    if (held === 0) continue;
    attributes += `${attributes === "" ? "" : ","}${heads[column] as string}${JSON.stringify(values)},"best":${JSON.stringify(bestOf(values))}}`;
  }

  const scores = rows.map((row) => groupScores(edition, row));
  const groupRows = groups.map(({ group }, g) => {
    const values = scores.map((score) => (Number.isNaN(score[g] as number) ? null : round1(score[g] as number)));
    return { group, label: displayLabel(group), scores: values, leader: bestOf(values) };
  }).filter(({ scores: values, group }) => group !== OTHER_GROUP || values.some((value) => value !== null));

  // Every badge any of them holds (where the edition keeps lists), best tier held first, then name.
  const badgeTiers = new Map<string, { name: string; slug: string; category?: string; tiers: (BadgeTier | null)[] }>();
  // Keyed by the edition's badge (folded slug): each badge once per player, however often a list names it.
  records.forEach((record, i) => {
    for (const badge of heldBadges(record.badges.list ?? [])) {
      const index = edition.catalogue.badgeOf(badge.slug);
      const known = index === undefined ? undefined : edition.catalogue.badges[index];
      const key = known?.slug ?? badge.slug;
      const category = badge.category ?? known?.category;
      const entry = badgeTiers.get(key) ?? { name: badge.name, slug: key, ...(category === undefined ? {} : { category }), tiers: rows.map((): BadgeTier | null => null) };
      entry.tiers[i] = badge.tier;
      badgeTiers.set(key, entry);
    }
  });
  const topTier = (tiers: readonly (BadgeTier | null)[]) => Math.max(...tiers.map((tier) => (tier === null ? -1 : (TIER_RANK.get(tier) ?? -1))));
  const badges = [...badgeTiers.values()].sort((a, b) => topTier(b.tiers) - topTier(a.tiers) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  // The zones as the records name them (an edition's data decides its vocabulary), first seen first.
  const zones = [...new Set(records.flatMap((record) => Object.keys(record.hotZones ?? {})))];
  const hotZones = zones.map((zone) => ({ zone, label: displayLabel(zone), values: records.map((record) => (record.hotZones as Record<string, string> | undefined)?.[zone] ?? null) }));

  // The rest of data after the players; `{"groups":…}` without its opening brace (its closing one closes data).
  return body.text(`],"overall":${JSON.stringify({ values: overalls, best: bestOf(overalls) })},"attributes":[${attributes}],${JSON.stringify({ groups: groupRows, badges, hotZones }).slice(1)}`);
}

const positions: JsonSchema = arrayOf({ type: "integer", minimum: 0, maximum: COMPARE_MAX - 1 }, "Positions in `players` (several on a tie)");
const nullableRating: JsonSchema = { type: ["integer", "null"], minimum: 0, maximum: 99 };

const compareResponse: RouteResponse = {
  kind: "envelope",
  description: "The players side by side; every list is in the order of `ids`",
  data: exactObject({
    players: arrayOf(ref("Player"), "Each player in full, with hot zones and rating history"),
    overall: exactObject({ values: arrayOf({ type: "integer", minimum: 0, maximum: 99 }), best: positions }),
    attributes: arrayOf(exactObject({
      attribute: text("camelCase attribute key"),
      label: text("Its display name (Three-Point Shot)"),
      group: text("Its attribute group (groupScore for the six group scores)"),
      groupLabel: text("The group's display name (Outside Scoring)"),
      values: arrayOf(nullableRating, "Each player's value; null where the player lacks it"),
      best: positions,
    }), "Every attribute at least one of them has, in the edition's column order"),
    groups: arrayOf(exactObject({
      group: text("Attribute group"),
      label: text("Its display name"),
      scores: arrayOf({ type: ["number", "null"] }, "Each player's mean over the group's attributes it has, one decimal"),
      leader: positions,
    })),
    badges: arrayOf(exactObject({
      name: text("Badge"), slug: text("Badge slug"), category: text("Badge category, where the source gives one"),
      tiers: arrayOf({ enum: [...BADGE_TIERS, null] }, "Each player's tier; null where the player lacks it"),
    }, ["category"]), "Every badge any of them holds (editions with badge lists), best tier first"),
    hotZones: arrayOf(exactObject({
      zone: text("Zone key, as the edition's records name it"), label: text("Its display name (Top of the Key Three)"), values: arrayOf({ type: ["string", "null"] }, "Each player's hot, cold or neutral; null where the player has no zones"),
    }), "Zones at least one of them has"),
  }),
  meta: exactObject({ gameVersion, count: integer("Players compared") }),
};

export const compareRoutes: RouteDefinition[] = everyEditionRoutes("/api/players/compare", baseParams, {
  access: "key", response: compareResponse, errors: ["PLAYER_NOT_FOUND"], handle: comparePlayers,
  summary: "Two to four players side by side: overall, every attribute with the best marked, group leaders, badge tiers, hot zones",
});
