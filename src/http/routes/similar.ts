// GET /api/players/:id/similar (and under /api/versions/:version/): the players whose attribute
// profiles are closest to one player's, in one edition, within an era and position scope. The
// scan and the distance live in store/attribute-profile.ts; this file parses, scopes and renders.

import { ERA_CODE, ERAS, type Era } from "../../model/eras.js";
import { parsePositionMask } from "../../model/positions.js";
import { limitParam, playerFilterParams } from "../../query/params.js";
import { ALL_ERAS_MASK } from "../../query/plan.js";
import { contrastProfilesJson, similarRows } from "../../store/attribute-profile.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { dataSourceText, type Reply } from "../reply.js";
import type { RouteDefinition, JsonSchema, RouteResponse } from "../router.js";
import { arrayOf, era, exactObject, gameVersion, integer, ref, text } from "../describe/response-schemas.js";
import { everyEditionRoutes, requestedEdition, type EveryEditionValues } from "./edition-param.js";
import { FragmentBody } from "../fragment-body.js";
import { rowOfIdOrSlug } from "./player-ref.js";
import { FIELD_BIT, SUMMARY_FIELDS_MASK } from "../../model/player.js";

export const SIMILAR_METHOD =
  "Distance over the attributes both players have (group scores left out), each difference divided by that attribute's standard deviation in the edition; " +
  "d = root mean square of those; similarity = 1 / (1 + d). A candidate must share at least half the player's attributes.";

const filters = playerFilterParams({ withAllEras: true });
const scopeSchemas = {
  teamType: { type: "string", enum: ERAS, description: "curr, class or allt: narrows a slug, and is the scope when era is not given", "x-normalise": "lower" },
  era: { ...filters.era, description: "Scope: curr, class, allt or all; default the player's own era" },
  position: filters.position,
  limit: limitParam(50, 10),
} as const;

const SUMMARY_SHAPE = { fieldMask: SUMMARY_FIELDS_MASK, isVersioned: false };
/** Bumped when the answer is rendered differently from the same data (the ETag names key and rendering). */
const RENDER_VERSION = 1;

/** What meta.player names: `{"_id","name","slug","team","teamType"}`, the player's own fragments. */
const PLAYER_SHAPE = { fieldMask: FIELD_BIT._id | FIELD_BIT.name | FIELD_BIT.slug | FIELD_BIT.team | FIELD_BIT.teamType, isVersioned: false };
const ATTRIBUTES_SHAPE = { fieldMask: FIELD_BIT.attributes, isVersioned: false };
/** A row whose attributes are `{}` renders as this many bytes in ATTRIBUTES_SHAPE: `{"attributes":{}}`. */
const NO_ATTRIBUTES_LENGTH = '{"attributes":{}}'.length;
const METHOD_JSON = JSON.stringify(SIMILAR_METHOD);

function similarPlayers(context: RequestContext<EveryEditionValues<typeof scopeSchemas>>): Reply {
  const { teamType, era, position, limit } = context.values;
  const edition = requestedEdition(context.editions, context.pathParams.version, context.values.gameVersion);
  const id = context.pathParams.id ?? "";
  const row = rowOfIdOrSlug(edition, id, teamType);
  // Nothing of the record is parsed: its era from the column, whether it has attributes from the length of their fragment.
  const scope: Era | "all" = era ?? teamType ?? (ERAS[edition.payload.columns.era[row] as number] as Era);
  const eraMask = scope === "all" ? ALL_ERAS_MASK : 1 << ERA_CODE[scope];
  // An unknown position was read leniently (a warning): it matches nobody, as on /api/players.
  const positionMask = position === undefined ? 0 : parsePositionMask(position);
  const hasAttributes = edition.fragments.rowLength(row, ATTRIBUTES_SHAPE) > NO_ATTRIBUTES_LENGTH;
  // The position as given is echoed (meta.scope), and the id where the answer warns of it.
  const key = cacheKey("/api/players/:id/similar", edition, [row, eraMask, position, limit, hasAttributes ? null : id]);
  return context.cached(key, () => {
    const matches = positionMask === undefined ? [] : similarRows(edition, { row, eraMask, positionMask, limit });
    // `{"player":{…row…},"similarity":…}` per match, rows copied from the fragments, the envelope around them.
    const body = new FragmentBody(edition.fragments).text('{"success":true,"data":[');
    for (let i = 0; i < matches.length; i++) {
      const match = matches[i] as (typeof matches)[number];
      const contrast = contrastProfilesJson(edition, row, match.row);
      body.text(i === 0 ? '{"player":' : ',{"player":').row(match.row, SUMMARY_SHAPE)
        .text(`,"similarity":${match.similarity},"sharedAttributes":${match.shared},"agreesMost":${contrast.agreesMost},"differsMost":${contrast.differsMost}}`);
    }
    body.text(`],"meta":{"gameVersion":${JSON.stringify(edition.key)},"player":`).row(row, PLAYER_SHAPE)
      .text(`,"scope":${JSON.stringify({ era: scope, ...(position === undefined ? {} : { position }) })},"count":${matches.length},"method":${METHOD_JSON}${dataSourceText(edition)}`);
    if (!hasAttributes) {
      const name = edition.field(row, "name");
      const team = edition.field(row, "team");
      body.text(`,"warnings":${JSON.stringify([{ parameter: "id", value: id, message: `${name} (${team}) has no attributes in ${edition.key}, so no profile to compare` }])}`);
    }
    return body.text("}}").reply(key, RENDER_VERSION);
  });
}

const contrast: JsonSchema = arrayOf(
  exactObject({ attribute: text("camelCase attribute key"), label: text("Its display name (Three-Point Shot)"), value: integer("This player's value"), otherValue: integer("The similar player's value") }),
  "Three shared attributes, by standardised difference",
);

const similarResponse: RouteResponse = {
  kind: "envelope",
  description: "The closest attribute profiles, most similar first (ties by name); the player itself excluded",
  data: arrayOf(exactObject({
    player: ref("SummaryPlayer"),
    similarity: { type: "number", minimum: 0, maximum: 1, description: "1 / (1 + d), four decimals; 1 is an identical profile" },
    sharedAttributes: integer("Attributes the distance is over"),
    agreesMost: contrast,
    differsMost: contrast,
  })),
  meta: exactObject({
    gameVersion,
    player: exactObject({ _id: text("_id"), name: text("Name"), slug: text("Slug"), team: text("Full team name"), teamType: era }),
    scope: exactObject({ era: { enum: [...ERAS, "all"] }, position: text("The position filter, as given") }, ["position"]),
    count: integer("Players returned"),
    method: text("How similarity is computed"),
    warnings: arrayOf(exactObject({ parameter: text("Parameter"), value: text("Value"), message: text("What happened") })),
  }, ["warnings"]),
};

export const similarRoutes: RouteDefinition[] = everyEditionRoutes("/api/players/:id/similar", scopeSchemas, {
  access: "key", response: similarResponse, errors: ["PLAYER_NOT_FOUND"], handle: similarPlayers,
  summary: "The players whose attribute profiles are closest to one player's, with what agrees and differs most",
});
