import t from "tap";
import {
  ATTRIBUTE_BY_PARAM_NAME, ATTRIBUTE_COUNT, ATTRIBUTE_INDEX, ATTRIBUTE_KEYS, toSnakeCase,
} from "../../src/model/attributes.js";
import { BADGES, BADGE_COUNT, parseBadgeTier } from "../../src/model/badges.js";
import { parsePositionMask } from "../../src/model/positions.js";
import { eraOfTeamName, normaliseEditionKey } from "../../src/model/eras.js";
import { foldName, slugify } from "../../src/model/names.js";
import { playerSlug } from "../../src/model/player.js";

t.test("the registry holds the 43 attribute keys of the contract", async (t) => {
  t.equal(ATTRIBUTE_COUNT, 43);
  t.equal(new Set(ATTRIBUTE_KEYS).size, 43);
  t.equal(ATTRIBUTE_INDEX.get("threePointShot"), ATTRIBUTE_KEYS.indexOf("threePointShot"));
});

t.test("snake_case names follow the capital-run rule", async (t) => {
  t.equal(toSnakeCase("shotIQ"), "shot_iq");
  t.equal(toSnakeCase("helpDefenseIQ"), "help_defense_iq");
  t.equal(toSnakeCase("threePointShot"), "three_point_shot");
  t.equal(ATTRIBUTE_BY_PARAM_NAME.get("pass_iq"), ATTRIBUTE_INDEX.get("passIQ"));
});

t.test("friendly aliases resolve to their attribute", async (t) => {
  t.equal(ATTRIBUTE_BY_PARAM_NAME.get("three_ball"), ATTRIBUTE_INDEX.get("threePointShot"));
  t.equal(ATTRIBUTE_BY_PARAM_NAME.get("dunk"), ATTRIBUTE_INDEX.get("drivingDunk"));
  t.equal(ATTRIBUTE_BY_PARAM_NAME.get("layup"), ATTRIBUTE_INDEX.get("drivingLayup"));
  t.equal(ATTRIBUTE_BY_PARAM_NAME.get("defense"), ATTRIBUTE_INDEX.get("perimeterDefense"));
  t.equal(ATTRIBUTE_BY_PARAM_NAME.get("mid_range"), ATTRIBUTE_INDEX.get("midRangeShot"));
  t.equal(ATTRIBUTE_BY_PARAM_NAME.get("threePointShot"), undefined);
});

t.test("the badge catalogue has 40 badges with unique slugs matching the scrape columns", async (t) => {
  t.equal(BADGE_COUNT, 40);
  t.equal(new Set(BADGES.map((b) => b.slug)).size, 40);
  t.ok(BADGES.some((b) => b.slug === "post-up-poet" && b.snake === "post_up_poet"));
  t.ok(BADGES.some((b) => b.snake === "boxout_beast"));
});

t.test("badge tiers parse in every spelling", async (t) => {
  for (const text of ["Hall of Fame", "hall-of-fame", "hallOfFame", "HALL OF FAME", "hof"]) t.equal(parseBadgeTier(text), "Hall of Fame", text);
  t.equal(parseBadgeTier("gold"), "Gold");
  t.equal(parseBadgeTier("platinum"), undefined);
});

t.test("positions and groups become masks, any case", async (t) => {
  t.equal(parsePositionMask("pg"), 1);
  t.equal(parsePositionMask("guard"), 3);
  t.equal(parsePositionMask("Wing"), 6);
  t.equal(parsePositionMask("big"), 24);
  t.equal(parsePositionMask("center"), undefined);
});

t.test("eras come from team names and edition keys normalise", async (t) => {
  t.equal(eraOfTeamName("All-Time Chicago Bulls"), "allt");
  t.equal(eraOfTeamName("1995-96 Chicago Bulls"), "class");
  t.equal(eraOfTeamName("Boston Celtics"), "curr");
  t.equal(normaliseEditionKey("2k26"), "2K26");
  t.equal(normaliseEditionKey("2K2"), undefined);
  t.equal(normaliseEditionKey("3K26"), undefined);
});

t.test("names fold accents, case and punctuation; slugs are hyphenated", async (t) => {
  t.equal(foldName("Nikola Jokić"), "nikola jokic");
  t.equal(foldName("De’Aaron  Fox"), "deaaron fox");
  t.equal(foldName("Shai Gilgeous-Alexander"), "shai gilgeous alexander");
  t.equal(slugify("1995-96 Chicago Bulls"), "1995-96-chicago-bulls");
  t.equal(slugify("De’Aaron Fox"), "deaaron-fox");
  t.equal(playerSlug("Michael Jordan", "class", "1995-96 Chicago Bulls"), "michael-jordan-1995-96-chicago-bulls");
  t.equal(playerSlug("LeBron James", "curr", "Los Angeles Lakers"), "lebron-james");
});
