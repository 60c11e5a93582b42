// How many pipelined requests one connection gets answered in one read before other sockets get a
// turn: the pipelining bound every HTTP adapter applies (docs/operations.md#connection-bounds).
// Pure bookkeeping on a turn of the event loop; the adapter says what a connection is and what
// "later" means for it. Free of uWS and node:http.

/**
 * Requests answered in one turn of the event loop before the adapter is asked who sent the next
 * one, and then the most one connection gets answered in a row within that turn. A connection
 * therefore gets at most 2 × PIPELINE_TURN_LIMIT answers per read; anything it pipelined past
 * that waits for the next turn (uWS closes the connection instead: it never answers a pipelined
 * request out of order).
 */
export const PIPELINE_TURN_LIMIT = 128;

/**
 * Counts requests per turn (a burst of synchronous callbacks, ended by `schedule`, setImmediate by
 * default). Under PIPELINE_TURN_LIMIT requests a turn nothing is read about the requester: the
 * common case costs one increment. Past it, consecutive requests of one connection are counted
 * (an adapter that cannot name the socket passes the peer address: two connections of one address
 * answered back to back then share a run, and the later ones wait a turn, which costs them a turn,
 * never an answer).
 */
export class ConnectionTurns {
  private inTurn = 0;
  private runOf: unknown = undefined;
  private run = 0;
  private isTurnScheduled = false;

  constructor(
    private readonly limit = PIPELINE_TURN_LIMIT,
    private readonly schedule: (callback: () => void) => void = setImmediate,
  ) {}

  /**
   * True: answer now. False: this request is past its connection's share of the turn; the adapter
   * answers it in a later turn (or lets the connection go). `connectionOf` is called only past the
   * turn's first `limit` requests.
   */
  admit(connectionOf: () => unknown): boolean {
    if (!this.isTurnScheduled) {
      this.isTurnScheduled = true;
      this.schedule(this.endTurn);
    }
    if (++this.inTurn <= this.limit) return true;
    const connection = connectionOf();
    if (connection === this.runOf) this.run++;
    else {
      this.runOf = connection;
      this.run = 1;
    }
    return this.run <= this.limit;
  }

  private readonly endTurn = (): void => {
    this.isTurnScheduled = false;
    this.inTurn = 0;
    this.runOf = undefined;
    this.run = 0;
  };
}
