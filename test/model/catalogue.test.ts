import t from "tap";
import { ATTRIBUTE_KEYS } from "../../src/model/attributes.js";
import { BADGES } from "../../src/model/badges.js";
import { Catalogue, REGISTRY_CATALOGUE, UNCATEGORISED, canonicalAttributeParam, catalogueOf } from "../../src/model/catalogue.js";

t.test("an edition's catalogue is what its data holds: the registry's keys in its order, then the others by name", async (t) => {
  const catalogue = catalogueOf([
    { attributes: { speed: 80, clutchShooting: 70, closeShot: 60 } },
    { attributes: { aggression: 50, speed: 81, threePointShot: undefined } },
  ]);
  t.same(catalogue.attributeKeys, ["closeShot", "speed", "aggression", "clutchShooting"], "a key no row has (threePointShot) is no column");
  t.same(catalogue.paramNames, ["close_shot", "speed", "aggression", "clutch_shooting"]);
  t.equal(catalogue.columnOfParam("clutch_shooting"), 3);
  t.equal(catalogue.columnOfKey("clutchShooting"), 3);
  t.equal(catalogue.columnOfParam("three_point_shot"), undefined, "the registry's key is not the edition's");
  t.equal(catalogue.columnOfParam("three_ball"), undefined, "nor is its alias");
});

t.test("aliases resolve to the attribute they name, where the edition has it", async (t) => {
  t.equal(canonicalAttributeParam("three_ball"), "three_point_shot");
  t.equal(canonicalAttributeParam("clutch_shooting"), "clutch_shooting");
  t.equal(canonicalAttributeParam("constructor"), "constructor", "Object's members are no aliases");
  t.equal(REGISTRY_CATALOGUE.columnOfParam("three_ball"), ATTRIBUTE_KEYS.indexOf("threePointShot"));
});

t.test("badges: the registry's in its order, then the others by slug; the first category, description and image a row gives", async (t) => {
  const catalogue = catalogueOf([
    { attributes: {}, badgeList: [{ name: "Spark Plug", slug: "spark-plug", category: "", description: "First word" }, { name: "Deadeye", slug: "deadeye" }] },
    { attributes: {}, badgeList: [{ name: "Spark Plug", slug: "spark-plug", category: "All Around", description: "Second word", imageUrl: "https://example.com/s.png" }] },
    { attributes: {}, badgeList: [{ name: "Anchor", slug: "anchor" }] },
    { attributes: {}, badgeList: [{ slug: "aftershock" }] },
  ]);
  t.same(catalogue.badges.map((badge) => badge.slug), ["deadeye", "aftershock", "anchor", "spark-plug"]);
  const deadeye = BADGES.find((badge) => badge.slug === "deadeye")!;
  t.same(catalogue.badges[0], { name: "Deadeye", slug: "deadeye", category: deadeye.category, description: deadeye.description }, "a known badge the rows say nothing of takes the registry's words");
  t.same(catalogue.badges[1], { name: "aftershock", slug: "aftershock", category: UNCATEGORISED, description: "aftershock" }, "a week's badge known by slug alone");
  t.same(catalogue.badges[3], { name: "Spark Plug", slug: "spark-plug", category: "All Around", description: "First word", imageUrl: "https://example.com/s.png" }, "an empty category is no category");
  t.same(catalogue.categories, ["All Around", deadeye.category, UNCATEGORISED].sort());
  t.equal(catalogue.badgeOf("SPARK-PLUG"), 3, "by slug in any case");
  t.equal(catalogue.badgeOf("spark plug"), 3, "or by name written any way");
  t.equal(catalogue.badgeOf("Spark_Plug"), 3, "punctuation aside (docs/data.md#source-values-kept-exactly: the badge filter matches this way too)");
  t.same(catalogue.badgesByName.map((b) => catalogue.badges[b]!.name), ["Anchor", "Deadeye", "Spark Plug", "aftershock"]);
});

t.test("a badge is named as its data spells it; spellings that differ in case or punctuation are one badge", async (t) => {
  const catalogue = catalogueOf([
    { attributes: {}, badgeList: [{ name: "Handles For Days", slug: "handles-for-days" }] },
    { attributes: {}, badgeList: [{ name: "Handles for Days", slug: "Handles-For-Days" }, { name: "Post Up Poet", slug: "post-up-poet" }] },
  ]);
  t.same(catalogue.badges.map((badge) => [badge.name, badge.slug]), [["Post Up Poet", "post-up-poet"], ["Handles For Days", "handles-for-days"]], "the first spelling the rows give, registry order");
  t.equal(catalogue.badgeOf("handles for days"), 1);
  t.equal(catalogue.badgeOf("HANDLES-FOR-DAYS"), 1);
});

t.test("a stored catalogue round-trips", async (t) => {
  const stored = REGISTRY_CATALOGUE.stored();
  t.same(new Catalogue(stored).stored(), stored);
  t.equal(REGISTRY_CATALOGUE.attributeCount, 43);
  t.equal(REGISTRY_CATALOGUE.badgeCount, 40);
});
