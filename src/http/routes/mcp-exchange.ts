// One SDK Server answering every stateless 2025-era POST /mcp, instead of a Server and a Streamable
// HTTP transport built per request (which cost most of a tool call: issue 45). This is the
// transport it is connected to, once: each request's message is handed to the server under an id
// of our own (so two clients' equal ids never meet inside it), the server's answer to that id is
// the request's answer, with the client's id put back. Notifications and client responses are
// delivered and answered 202 without a body, as the Streamable HTTP transport answers them.

import { isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResponse, type JSONRPCMessage, type RequestId, type Transport } from "@modelcontextprotocol/server";

interface Pending<T> { clientId: RequestId; context: T; settle: (message: JSONRPCMessage) => void }

export class McpExchange<T> implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <M extends JSONRPCMessage>(message: M) => void;
  private next = 0;
  private readonly pending = new Map<number, Pending<T>>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** The server's answer: the request it answers is settled, under the client's own id. */
  async send(message: JSONRPCMessage): Promise<void> {
    const id = (message as { id?: unknown }).id;
    const waiting = typeof id === "number" ? this.pending.get(id) : undefined;
    if (waiting === undefined) return; // a request or notification of the server's own: no stream to send it on
    this.pending.delete(id as number);
    waiting.settle({ ...message, id: waiting.clientId } as JSONRPCMessage);
  }

  /** The context of the request the server is answering (its handler is given our id). */
  contextOf(id: RequestId): T | undefined {
    return typeof id === "number" ? this.pending.get(id)?.context : undefined;
  }

  /**
   * Delivers one message: a request's answer (the JSON-RPC response), undefined for a notification
   * or a response (accepted, nothing to answer), "invalid" for what is no JSON-RPC message.
   */
  exchange(message: unknown, context: T): Promise<JSONRPCMessage> | undefined | "invalid" {
    if (isJSONRPCRequest(message)) {
      const id = ++this.next;
      return new Promise<JSONRPCMessage>((settle) => {
        this.pending.set(id, { clientId: message.id, context, settle });
        this.onmessage?.({ ...message, id });
      });
    }
    if (isJSONRPCNotification(message) || isJSONRPCResponse(message)) {
      // A client's notification (initialized, cancelled) names nothing of ours; a response answers a request we never make.
      if (isJSONRPCNotification(message) && message.method !== "notifications/cancelled") this.onmessage?.(message);
      return undefined;
    }
    return "invalid";
  }
}
