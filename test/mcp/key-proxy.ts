// A loopback HTTP proxy that adds the API key to every request and passes everything else on as
// sent (Host and Origin included): how a client that cannot send headers of its own (the official
// conformance suite) reaches POST /mcp, which wants a key.

import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export async function startKeyProxy(target: URL, key: string): Promise<{ base: string; close: () => Promise<void> }> {
  const server: Server = createServer((incoming, outgoing) => {
    const forwarded = request({
      host: target.hostname, port: target.port, method: incoming.method, path: incoming.url,
      headers: { ...incoming.headers, "x-api-key": key },
    }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on("error", () => { outgoing.writeHead(502).end(); });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
