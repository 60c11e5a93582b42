// The reference for boot time: a bare uWS app (the same addon Courtside serves with) that answers
// GET /ready with 200 once it listens. bench/boot.ts times spawn → first 200 of both the same way.
// Usage: PORT=3199 node dist/bench/bare-uws.js

import { loadUws } from "../src/http/uws.js";

// The build the server loads on this Node (20.57, or 20.30 on Node 20 with an older glibc).
const uWS = loadUws();

const port = Number(process.env.PORT ?? 3199);
uWS.App()
  .get("/ready", (res) => { res.end("ok"); })
  .any("/*", (res) => { res.writeStatus("404 Not Found").end(); })
  .listen("127.0.0.1", port, (socket) => {
    if (!socket) {
      process.stderr.write(`bare uWS: cannot listen on ${port}\n`);
      process.exit(1);
    }
  });
process.once("SIGTERM", () => process.exit(0));
