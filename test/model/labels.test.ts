// Display labels: the game's names for the keys the registry knows, any other key read word by word.
import t from "tap";
import { ATTRIBUTE_GROUPS, ATTRIBUTE_KEYS } from "../../src/model/attributes.js";
import { displayLabel, wordsOf } from "../../src/model/labels.js";
import { HOT_ZONE_KEYS } from "../../src/model/player.js";

t.test("the registry's attributes, groups and zones read as the game names them", async (t) => {
  t.equal(displayLabel("threePointShot"), "Three-Point Shot");
  t.equal(displayLabel("midRangeShot"), "Mid-Range Shot");
  t.equal(displayLabel("shotIQ"), "Shot IQ");
  t.equal(displayLabel("helpDefenseIQ"), "Help Defense IQ");
  t.equal(displayLabel("speedWithBall"), "Speed with Ball");
  t.equal(displayLabel("outsideScoring"), "Outside Scoring");
  t.equal(displayLabel("groupScore"), "Group Scores");
  t.equal(displayLabel("topKeyThree"), "Top of the Key Three");
  t.equal(displayLabel("leftCornerThree"), "Left Corner Three");
  t.equal(displayLabel("underBasket"), "Under the Basket");
  const every = [...ATTRIBUTE_KEYS, ...Object.keys(ATTRIBUTE_GROUPS), ...HOT_ZONE_KEYS];
  const bad = every.filter((key) => !/^[A-Z][A-Za-z-]*( [A-Za-z][A-Za-z-]*)*$/.test(displayLabel(key)) || displayLabel(key) === key);
  t.same(bad, [], "every key has a label of capitalised words, none the key itself");
  t.equal(new Set(every.map(displayLabel)).size, new Set(every).size, "no two keys share a label");
});

t.test("a key the registry does not know is read word by word", async (t) => {
  t.equal(displayLabel("offHandDribbling"), "Off Hand Dribbling");
  t.equal(wordsOf("postIQRating"), "Post IQ Rating");
  t.equal(wordsOf("clutch"), "Clutch");
  t.equal(wordsOf("shot3PT"), "Shot 3 PT");
});
