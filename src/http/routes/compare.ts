// GET /api/players/compare?ids=a,b[,c,d] (and under /api/versions/:version/): two to four players
// of one edition side by side. Every per-player list is in the order of `ids`; `best` and
// `leader` name positions in it (several on a tie); a player without a value has null there.

import { BADGE_TIERS } from "../../model/badges.js";
import { ERAS } from "../../model/eras.js";
import { displayLabel } from "../../model/labels.js";
import { ALL_FIELDS_MASK } from "../../model/player.js";
import { invalidParameter } from "../../query/api-error.js";
import { attributeGroupsOf, attributeKeysOf, attributeValue, groupScore, OTHER_GROUP } from "../../store/attribute-profile.js";
import type { Edition } from "../../store/edition.js";
import { memoKey } from "../../store/edition-memo.js";
import type { EditionSet } from "../../store/editions.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { dataSourceText, type Reply } from "../reply.js";
import type { RouteDefinition, JsonSchema, RouteResponse } from "../router.js";
import { arrayOf, exactObject, gameVersion, integer, ref, text } from "../describe/response-schemas.js";
import { everyEditionRoutes, requestedEdition, type EveryEditionValues } from "./edition-param.js";
import { rowOfIdOrSlug } from "./player-ref.js";
import { FragmentBody } from "../fragment-body.js";
import { editionRatingsText, heldBadgesOf, zoneTexts } from "./compare-rows.js";

export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;
/** Long enough for four ids or slugs (slugs of classic rosters run to ~70 characters). */
const IDS_MAX_LENGTH = 4 * 120;

const baseParams = {
  ids: {
    type: "string", maxLength: IDS_MAX_LENGTH, description: `${COMPARE_MIN} to ${COMPARE_MAX} players' _ids or slugs, comma-separated, each once`,
    "x-required": `ids is required: ${COMPARE_MIN} to ${COMPARE_MAX} players' _ids or slugs, comma-separated, e.g. /api/players/compare?ids=stephen-curry,rudy-gobert`,
  },
  teamType: { type: "string", enum: ERAS, description: "curr, class or allt: narrows every slug", "x-normalise": "lower" },
} as const;

/** The ids as given, checked for count and repeats (400 INVALID_PARAMETER). */
function parseIds(text: string): string[] {
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
const ATTRIBUTE_HEADS = memoKey<readonly string[]>("compare|attribute-heads");
function attributeHeadsOf(edition: Edition): readonly string[] {
  return edition.memo.of(ATTRIBUTE_HEADS, () => {
    const groupOf = new Map(attributeGroupsOf(edition).flatMap(({ group, columns }) => columns.map((column) => [column, group] as const)));
    return attributeKeysOf(edition).map((attribute, column) => {
      const group = groupOf.get(column) ?? "groupScore";
      return JSON.stringify({ attribute, label: displayLabel(attribute), group, groupLabel: displayLabel(group), values: [] }).slice(0, -3);
    });
  });
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
  return context.cached(key, () => comparison(context.editions, edition, rows, isVersioned).text(`,"meta":{"gameVersion":${JSON.stringify(edition.key)},"count":${rows.length}${dataSourceText(edition)}}}`).reply(key, RENDER_VERSION));
}

/** Bumped when the answer is rendered differently from the same data (the ETag names key and rendering). */
const RENDER_VERSION = 1;

/** Per edition, each group's fixed head in the answer: `{"group":…,"label":…,"scores":[`. */
const GROUP_HEADS = memoKey<readonly string[]>("compare|group-heads");
function groupHeadsOf(edition: Edition): readonly string[] {
  return edition.memo.of(GROUP_HEADS, () => attributeGroupsOf(edition).map(({ group }) => `{"group":${JSON.stringify(group)},"label":${JSON.stringify(displayLabel(group))},"scores":[`));
}

/** `[a,b,…]` of numbers and nulls: JSON.stringify(values) without its generic walk. */
function listText(values: readonly (number | null)[]): string {
  let text = "[";
  for (let i = 0; i < values.length; i++) text += `${i === 0 ? "" : ","}${values[i] === null ? "null" : String(values[i])}`;
  return `${text}]`;
}

/** One badge of the answer while it is gathered: its head (from its first holder), name, and each player's tier. */
interface BadgeColumn {
  head: string;
  name: string;
  tierTexts: string[];
  /** Each player's tier as a BADGE_TIERS index (-1: none). */
  tierRanks: number[];
}

/**
 * `{"success":true,"data":{…}` (the caller adds meta): each player its row's bytes and its
 * editionRatings, the rest written from the columns and the edition's stored compare tables
 * (compare-rows.ts): no badge list or zones are parsed here.
 */
function comparison(editions: EditionSet, edition: Edition, rows: readonly number[], isVersioned: boolean): FragmentBody {
  const body = new FragmentBody(edition.fragments).text('{"success":true,"data":{"players":[');
  const fullShape = { fieldMask: ALL_FIELDS_MASK, isVersioned };
  rows.forEach((row, i) => {
    body.text(i === 0 ? "" : ",").row(row, fullShape, true).text(`,"editionRatings":${editionRatingsText(editions, edition, row)}}`);
  });
  const overalls = rows.map((row) => edition.payload.columns.overall[row] as number);
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
    attributes += `${attributes === "" ? "" : ","}${heads[column] as string}${listText(values)},"best":${listText(bestOf(values))}}`;
  }

  // Each group's scores (stored per row, store/profile-tables.ts); `other` only where one of them has it.
  const groupTexts: string[] = [];
  const scoreHeads = groupHeadsOf(edition);
  groups.forEach(({ group }, g) => {
    let held = 0;
    for (let i = 0; i < rows.length; i++) {
      const score = groupScore(edition, rows[i] as number, g);
      values[i] = Number.isNaN(score) ? null : round1(score);
      if (values[i] !== null) held++;
    }
    if (group === OTHER_GROUP && held === 0) return;
    groupTexts.push(`${scoreHeads[g] as string}${listText(values).slice(1)},"leader":${listText(bestOf(values))}}`);
  });

  // Every badge any of them holds (where the edition keeps lists), best tier held first, then name;
  // keyed by the edition's badge: each badge once per player, however often a list names it.
  const badgeColumns = new Map<string, BadgeColumn>();
  rows.forEach((row, i) => {
    for (const badge of heldBadgesOf(edition, row)) {
      let column = badgeColumns.get(badge.key);
      if (column === undefined) {
        column = { head: badge.head, name: badge.name, tierTexts: rows.map(() => "null"), tierRanks: rows.map(() => -1) };
        badgeColumns.set(badge.key, column);
      }
      column.tierTexts[i] = badge.tierText;
      column.tierRanks[i] = badge.tierRank;
    }
  });
  const topTier = (column: BadgeColumn) => Math.max(...column.tierRanks);
  const badgeTexts = [...badgeColumns.values()]
    .sort((a, b) => topTier(b) - topTier(a) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ head, tierTexts }) => `${head},"tiers":[${tierTexts.join(",")}]}`);


  // The rest of data after the players; groups, badges and zones close with data's brace.
  return body.text(`],"overall":{"values":${listText(overalls)},"best":${listText(bestOf(overalls))}},"attributes":[${attributes}],`
    + `"groups":[${groupTexts.join(",")}],"badges":[${badgeTexts.join(",")}],"hotZones":[${zoneTexts(edition, rows).join(",")}]}`);
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
