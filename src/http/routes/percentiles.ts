// GET /api/players/:id/percentiles (and under /api/versions/:version/): where one player stands in
// a cohort of its edition, per attribute, attribute group and overall: its midpoint percentile,
// the cohort's size and mean. The sorted values and the searches live in store/percentiles.ts;
// this file resolves the player, names the cohort and renders.

import { ERAS } from "../../model/eras.js";
import { displayLabel } from "../../model/labels.js";
import { POSITIONS } from "../../model/positions.js";
import { attributeGroupsOf, attributeKeysOf } from "../../store/attribute-profile.js";
import type { Edition } from "../../store/edition.js";
import { COHORT_KINDS, playerPercentiles, type CohortKind, type Standing } from "../../store/percentiles.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { dataSourceMeta, successReply, type Reply } from "../reply.js";
import type { RouteDefinition, JsonSchema, RouteResponse } from "../router.js";
import { arrayOf, era, exactObject, gameVersion, integer, text } from "../describe/response-schemas.js";
import { everyEditionRoutes, requestedEdition, type EveryEditionValues } from "./edition-param.js";
import { rowOfIdOrSlug } from "./player-ref.js";
import { rowsForSlug } from "./player-rows.js";
import { rowsOnTeam } from "./players.js";

export const PERCENTILE_METHOD =
  "percentile = round((below + equal / 2) / n × 100) over the cohort's players that have the value (the player among them); " +
  "an attribute a player lacks is left out of its cohort, and the player's own is null; a group score is the mean of the group's attributes the player has.";

const params = {
  cohort: {
    type: "string", enum: COHORT_KINDS, default: "position", "x-normalise": "lower",
    description: "position (default): the player's era and primary position (the first of its list); era: its era; all: the whole edition",
  },
  teamType: { type: "string", enum: ERAS, description: "curr, class or allt: narrows a slug", "x-normalise": "lower" },
  team: { type: "string", maxLength: 100, description: "Exact full team name, or its slug: which roster's version of the player (narrows like teamType)" },
} as const;

type PercentileValues = EveryEditionValues<typeof params>;

const round1 = (value: number) => Math.round(value * 10) / 10;

/** The player's row: an `_id` or slug narrowed by teamType, then by team (404 PLAYER_NOT_FOUND naming its rosters). */
function rowOfPlayer(edition: Edition, id: string, values: PercentileValues): number {
  const { teamType: era, team } = values;
  if (team === undefined) return rowOfIdOrSlug(edition, id, era);
  const byId = edition.rowById.get(id);
  const rows = byId !== undefined && (era === undefined || edition.eraOf(byId) === era) ? [byId] : rowsForSlug(edition, id, era);
  return rowsOnTeam(edition, rows, id, team, era)[0] as number;
}

function percentiles(context: RequestContext<PercentileValues>): Reply {
  const edition = requestedEdition(context.editions, context.pathParams.version, context.values.gameVersion);
  const row = rowOfPlayer(edition, context.pathParams.id ?? "", context.values);
  const kind: CohortKind = context.values.cohort;
  return context.cached(cacheKey("/api/players/:id/percentiles", edition, [row, kind]), () => {
    // The six fields named, not the whole record (a parse of a full record is most of a request's cost).
    const player = {
      _id: edition.field(row, "_id"), name: edition.field(row, "name"), slug: edition.field(row, "slug"),
      team: edition.field(row, "team"), teamType: edition.field(row, "teamType"), positions: edition.field(row, "positions"),
    };
    const standing = playerPercentiles(edition, row, kind);
    const cell = (value: number | null, { percentile, size, mean }: Standing) =>
      ({ value, percentile, cohortSize: size, cohortMean: Number.isNaN(mean) ? null : round1(mean) });
    const keys = attributeKeysOf(edition);
    const groups = attributeGroupsOf(edition);
    const groupOf = new Map(groups.flatMap(({ group, columns }) => columns.map((column) => [column, group] as const)));
    const { cohort } = standing;
    const data = {
      player: { _id: player._id, name: player.name, slug: player.slug, team: player.team, teamType: player.teamType, positions: player.positions ?? [] },
      cohort: {
        kind: cohort.kind,
        ...(cohort.era === undefined ? {} : { era: cohort.era }),
        ...(cohort.kind === "position" ? { position: cohort.position ?? null } : {}),
        size: cohort.size,
      },
      overall: cell(standing.overall.value ?? null, standing.overall),
      attributes: standing.attributes.map((entry, column) => {
        const attribute = keys[column] as string;
        const group = groupOf.get(column) ?? "groupScore";
        return { attribute, label: displayLabel(attribute), group, groupLabel: displayLabel(group), ...cell(entry.value ?? null, entry) };
      }),
      groups: standing.groups.map((entry, g) => {
        const { group } = groups[g] as (typeof groups)[number];
        return { group, label: displayLabel(group), ...cell(entry.value === undefined ? null : round1(entry.value), entry) };
      }),
    };
    const warnings = cohort.size > 0 ? [] : [{
      parameter: "cohort", value: kind, message: `${player.name} (${player.team}) names no known position, so has no position cohort: ask for cohort=era or cohort=all`,
    }];
    return successReply(data, { gameVersion: edition.key, method: PERCENTILE_METHOD, ...dataSourceMeta(edition), ...(warnings.length > 0 ? { warnings } : {}) }, { isCacheable: true });
  });
}

const percentile: JsonSchema = { type: ["integer", "null"], minimum: 0, maximum: 100, description: "round((below + equal / 2) / n × 100); null where the player lacks the value or has no cohort" };
const cohortSize = integer("n: the cohort's players that have the value");
const cohortMean: JsonSchema = { type: ["number", "null"], description: "Their mean, one decimal; null when none has it" };

const percentilesResponse: RouteResponse = {
  kind: "envelope",
  description: "The player's percentile in its cohort for overall, every attribute of the edition and every attribute group, with the cohort's size and mean",
  data: exactObject({
    player: exactObject({
      _id: text("_id"), name: text("Name"), slug: text("Slug"), team: text("Full team name"), teamType: era,
      positions: arrayOf({ type: "string" }, "As the source lists them; the first known one is the primary position"),
    }),
    cohort: exactObject({
      kind: { enum: [...COHORT_KINDS], description: "The cohort asked for" },
      era: { ...era, description: "The player's era (position and era cohorts)" },
      position: { enum: [...POSITIONS, null], description: "The player's primary position (position cohort); null where its list names none" },
      size: integer("Players in the cohort (0 without one)"),
    }, ["era", "position"]),
    overall: exactObject({ value: { type: "integer", minimum: 0, maximum: 99 }, percentile, cohortSize, cohortMean }),
    attributes: arrayOf(exactObject({
      attribute: text("camelCase attribute key"),
      label: text("Its display name (Three-Point Shot)"),
      group: text("Its attribute group (groupScore for the six group scores)"),
      groupLabel: text("The group's display name (Outside Scoring)"),
      value: { type: ["integer", "null"], minimum: 0, maximum: 99, description: "The player's value; null where it lacks the attribute" },
      percentile, cohortSize, cohortMean,
    }), "Every attribute of the edition's catalogue, in column order"),
    groups: arrayOf(exactObject({
      group: text("Attribute group"),
      label: text("Its display name"),
      value: { type: ["number", "null"], description: "The player's group score (the mean of the group's attributes it has), one decimal; null where it has none" },
      percentile, cohortSize, cohortMean,
    }), "Every attribute group of the edition (group scores computed, as compare's)"),
  }),
  meta: exactObject({
    gameVersion,
    method: text("How percentiles are computed"),
    warnings: arrayOf(exactObject({ parameter: text("Parameter"), value: text("Value"), message: text("What happened") })),
  }, ["warnings"]),
};

export const percentileRoutes: RouteDefinition[] = everyEditionRoutes("/api/players/:id/percentiles", params, {
  access: "key", response: percentilesResponse, errors: ["PLAYER_NOT_FOUND"], handle: percentiles,
  summary: "One player's percentile in its era and position (or era, or edition) for overall, every attribute and group, with the cohort's size and mean",
});
