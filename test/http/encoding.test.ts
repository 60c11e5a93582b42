import t from "tap";
import { chooseEncoding } from "../../src/http/encoding.js";

t.test("Accept-Encoding: br before gzip, q=0 refuses, * accepts both, answers stay the same when asked again", async (t) => {
  const cases: [string, string][] = [
    ["", "identity"],
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
    ["x-gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["br; q=0.0, gzip;q=0", "identity"],
    ["*", "br"],
    ["deflate", "identity"],
    ["GZIP;Q=1", "gzip"],
  ];
  for (let round = 0; round < 3; round++) {
    for (const [header, expected] of cases) t.equal(chooseEncoding(header), expected, `${JSON.stringify(header)} (round ${round})`);
  }
});

t.test("many distinct or very long values are still parsed right (the memo of recent values is bounded)", async (t) => {
  for (let i = 0; i < 1000; i++) {
    const header = i % 2 === 0 ? `gzip;q=0.5, coding-${i}` : `br;q=0, coding-${i}`;
    t.equal(chooseEncoding(header), i % 2 === 0 ? "gzip" : "identity", header);
  }
  t.equal(chooseEncoding(`${"x".repeat(5000)}, br`), "br", "a 5,000-character value");
  t.equal(chooseEncoding(`${"x".repeat(5000)}, br;q=0`), "identity");
  t.equal(chooseEncoding("gzip, deflate, br"), "br", "a common value after the memo was cleared");
});
