// The ceiling of the load benchmark: a bare uWS app that answers each recorded URL with the exact
// bytes (status, Content-Type, Content-Encoding, body) Courtside returned for it, found by one Map
// lookup on Accept-Encoding + URL (one URL can be recorded under two encodings). Whatever
// Courtside does beyond this is the cost of our work.
//
// Usage: PORT=3101 node dist/bench/ceiling.js recordings.json

import { readFileSync } from "node:fs";
import { loadUws } from "../src/http/uws.js";

// The build the server loads on this Node (20.57, or 20.30 on Node 20 with an older glibc).
const uWS = loadUws();

export interface Recording {
  path: string;
  /** The Accept-Encoding it was requested with ("" for none). */
  acceptEncoding: string;
  status: number;
  contentType: string;
  contentEncoding: string;
  bodyBase64: string;
}

interface Answer {
  status: string;
  contentType: string;
  contentEncoding: string;
  body: Buffer;
}

const file = process.argv[2];
if (file === undefined) throw new Error("usage: ceiling.js recordings.json");
const recordings = JSON.parse(readFileSync(file, "utf8")) as Recording[];
const answers = new Map<string, Answer>(recordings.map((recording) => [`${recording.acceptEncoding} ${recording.path}`, {
  status: String(recording.status),
  contentType: recording.contentType,
  contentEncoding: recording.contentEncoding,
  body: Buffer.from(recording.bodyBase64, "base64"),
}]));
const notFound = Buffer.from('{"success":false}');
const port = Number(process.env.PORT ?? 3101);

uWS.App().any("/*", (res, req) => {
  const query = req.getQuery();
  const answer = answers.get(`${req.getHeader("accept-encoding")} ${query ? `${req.getUrl()}?${query}` : req.getUrl()}`);
  if (answer === undefined) {
    res.writeStatus("404").end(notFound);
    return;
  }
  res.writeStatus(answer.status).writeHeader("Content-Type", answer.contentType);
  if (answer.contentEncoding !== "") res.writeHeader("Content-Encoding", answer.contentEncoding);
  res.end(answer.body);
}).listen(process.env.HOST ?? "127.0.0.1", port, (socket) => {
  if (!socket) throw new Error(`ceiling cannot listen on ${port}`);
  process.stdout.write(`ceiling listening on ${port} (${answers.size} recorded URLs)\n`);
});
