// The one error a sync stops with: which edition, which address (never the key) and why. The
// command prints its message and exits non-zero; nothing has been written when it is thrown.

export class SyncError extends Error {
  override readonly name = "SyncError";
  readonly edition: string | undefined;
  readonly url: string;
  readonly reason: string;

  /**
   * @param edition the edition being fetched or written; undefined for the edition list itself
   * @param url     the address asked (the key travels in a header, so it is never part of it)
   * @param reason  what went wrong, in words an operator can act on
   */
  constructor(edition: string | undefined, url: string, reason: string) {
    super(`${edition === undefined ? "" : `${edition}: `}${url}: ${reason}`);
    this.edition = edition;
    this.url = url;
    this.reason = reason;
  }
}
