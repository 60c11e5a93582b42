// Calls every helper of courtside-client against a running service, as a user would, and prints
// what it got as one JSON line. COURTSIDE_URL and COURTSIDE_KEY say where and with which key.

import { CourtsideError, createClient, type Player } from "courtside-client";

const api = createClient({ baseUrl: process.env.COURTSIDE_URL ?? "http://localhost:3000", apiKey: process.env.COURTSIDE_KEY ?? "" });

const page = await api.players({ position: "guard", sort: "speed:desc", limit: 5 });
const fastest: Player | undefined = page.data[0];
const trimmed = await api.players({ era: "all", fields: "name,overall", limit: 2 });
const found = await api.search(fastest?.name ?? "a", { limit: 3 });
const detail = await api.player(fastest?.slug ?? "", { teamType: "curr" });
const everyone = await api.bulk({ era: "curr" });
const again = await api.bulk({ era: "curr" });
const csv = new TextDecoder().decode(await api.exportBulk("csv", { era: "curr" }));
const resolved = await api.batch([fastest?.name ?? "", "Nobody Atall"], { fields: "name,slug" });
const teams = await api.GET("/api/teams", { params: { query: { era: "allt" } } });
const alike = await api.similar(fastest?._id ?? "", { limit: 3 });
const standing = await api.percentiles(fastest?._id ?? "", { cohort: "era" });
const sideBySide = await api.compare([fastest?._id ?? "", page.data[1]?.slug ?? ""]);
const profile = await api.teamProfile(fastest?.team ?? "");

let missing: { status: number; code: string } | undefined;
try {
  await api.player("nobody-at-all");
} catch (error) {
  if (error instanceof CourtsideError) missing = { status: error.status, code: error.code };
}

console.log(JSON.stringify({
  players: { count: page.meta.count, first: fastest?.name, speed: fastest?.attributes.speed, nextCursor: page.meta.pagination.nextCursor },
  trimmed: trimmed.data.map((row) => Object.keys(row).sort().join(",")),
  search: { first: found.data[0]?.name, total: found.meta.total },
  player: { slug: detail.data.slug, zones: Object.keys(detail.data.hotZones ?? {}).length, editions: detail.data.ratingHistory?.length ?? 0 },
  bulk: { count: everyone.meta.count, total: everyone.meta.total, isSameObject: again === everyone },
  csv: { header: csv.slice(0, csv.indexOf(",")), lines: csv.split("\r\n").length - 2 },
  batch: { matched: resolved.meta.matched, unmatched: resolved.meta.unmatched.map((entry) => entry.query) },
  teams: teams.data?.data.map((team) => team.teamName),
  missing,
  similar: alike.data.map((entry) => ({ slug: entry.player.slug, similarity: entry.similarity })),
  percentiles: { cohort: standing.data.cohort, speed: standing.data.attributes.find((row) => row.attribute === "speed")?.percentile },
  compare: { players: sideBySide.data.players.map((player) => player.slug), best: sideBySide.data.overall.best },
  profile: { team: profile.data.team.teamName, groups: profile.data.groups.map((group) => group.group) },
}));
