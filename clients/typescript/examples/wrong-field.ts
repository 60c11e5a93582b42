// Must NOT compile: the test runs tsc on this file and expects exactly the errors marked below.
// A misspelt field or parameter is caught before the request is ever sent.

import { createClient } from "courtside-client";

const api = createClient({ baseUrl: "http://localhost:3000", apiKey: "2k_example" });

const page = await api.players({ limit: 1 });
console.log(page.data[0]?.overal); // expect-error TS2551 Property 'overal' does not exist

await api.players({ positon: "PG" }); // expect-error TS2769 No overload matches this call

const result = await api.search("lebron");
console.log(result.meta.totl); // expect-error TS2551 Property 'totl' does not exist

await api.GET("/api/player/search", { params: { query: { q: "x" } } }); // expect-error TS2345 "/api/player/search"
