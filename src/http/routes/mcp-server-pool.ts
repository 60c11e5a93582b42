// The SDK servers 2026-07-28 requests are served on. The SDK's HTTP entry (createMcpHandler) asks
// its factory for a server per request and refuses one that is still serving another; building
// one (its handlers, its schemas) was most of such a call's cost (issue 45). So servers are kept:
// a request takes one that serves nothing, the server is its alone until the SDK closes the
// exchange (or the server), and then it is free again. As many exist as requests were ever in
// flight at once in this thread; at most MAX_IDLE wait unused, the rest are dropped.

import type { Server } from "@modelcontextprotocol/server";

/** Servers kept unused; a burst of concurrent requests above it builds servers that are dropped after. */
const MAX_IDLE = 8;

export interface PooledServer<C> {
  readonly server: Server;
  /** The request the server is serving (its handlers read it); undefined while idle. */
  context: C | undefined;
}

export class McpServerPool<C> {
  private readonly idle: PooledServer<C>[] = [];

  constructor(private readonly build: (entry: PooledServer<C>) => Server) {}

  /** A server for one request, serving nothing else until the SDK closes its exchange. */
  take(context: C): Server {
    const entry = this.idle.pop() ?? this.create();
    entry.context = context;
    return entry.server;
  }

  private create(): PooledServer<C> {
    const entry = { context: undefined as C | undefined } as { server: Server; context: C | undefined };
    const server = this.build(entry);
    entry.server = server;
    // Freed when its exchange ends (the transport closes: the SDK chains its own onclose to this
    // one) or when the SDK closes a server it took but never connected (a request it refuses
    // after asking the factory). Either may come twice for one exchange: freed once.
    const release = (): void => {
      if (entry.context === undefined || server.transport !== undefined) return;
      entry.context = undefined;
      if (this.idle.length < MAX_IDLE) this.idle.push(entry);
    };
    server.onclose = release;
    const close = server.close.bind(server);
    server.close = async () => {
      await close();
      release();
    };
    return entry;
  }
}
