// Admission, before a route runs: the key (401) and a token from the bucket the route's access
// names (429). Every route has a limit: keyed routes draw from the key's bucket (or, with REDIS_URL,
// the bucket replicas share), the owner routes from a small bucket of their own, registration and
// the no-key routes from per-address buckets. Used by the dispatcher for requests and upgrades.

import { ApiError } from "../query/api-error.js";
import { ADDRESS_POLICY, KEY_POLICY, OWNER_POLICY, PROBE_POLICY, PROBE_SLOTS, REGISTRATION_POLICY, refillPerMs, TokenBuckets, type SharedKeyBuckets } from "../limits/token-buckets.js";
import type { Admission, VerifiedKey } from "./context.js";
import type { RouteDefinition } from "./router.js";

export interface KeyVerifier {
  verify(key: string): VerifiedKey | undefined;
}

export interface AdmissionOptions {
  keys: KeyVerifier;
  buckets: TokenBuckets;
  /** Registrations per client address (REGISTRATION_POLICY), shared by every worker like `buckets`. */
  registrationBuckets: TokenBuckets;
  /** Per key, for the owner routes (OWNER_POLICY), shared by every worker like `buckets`. */
  ownerBuckets: TokenBuckets;
  /** Per client address, for the routes that need no key (PROBE_POLICY), shared by every worker like `buckets`; this thread's own by default. */
  probeBuckets?: TokenBuckets | undefined;
  /** With REDIS_URL: the key buckets every replica shares (address buckets stay per replica). */
  sharedBuckets?: SharedKeyBuckets | undefined;
}

/** What admission reads of a route. */
export type AdmittedRoute = Pick<RouteDefinition, "access" | "isOwnerAction">;
/** What admission reads of a request: the key as presented, and the peer's address when a bucket is per address. */
export interface AdmittedRequest { apiKey: string; address(): string }

export class Admitter {
  private readonly probeBuckets: TokenBuckets;

  constructor(private readonly options: AdmissionOptions) {
    this.probeBuckets = options.probeBuckets ?? new TokenBuckets(0, PROBE_SLOTS);
  }

  /** Checks the key (or the address) and takes a token; throws (or rejects with) 401/429. */
  admit(route: AdmittedRoute, request: AdmittedRequest, now: number): Admission | Promise<Admission> {
    const { buckets } = this.options;
    if (route.access === "probe") {
      // The no-key routes: a generous bucket of their own per address.
      const probes = this.probeBuckets;
      const slot = probes.addressSlot(request.address());
      const { capacity, windowSeconds } = PROBE_POLICY;
      const result = probes.take(slot, capacity, refillPerMs(capacity, windowSeconds), now);
      return ensureAllowed({ result, capacity, windowSeconds, policy: "probe", slot, buckets: probes });
    }
    const addressAdmission = (): Admission => {
      const slot = buckets.addressSlot(request.address());
      const result = buckets.take(slot, ADDRESS_POLICY.capacity, refillPerMs(ADDRESS_POLICY.capacity, ADDRESS_POLICY.windowSeconds), now);
      return { result, capacity: ADDRESS_POLICY.capacity, windowSeconds: ADDRESS_POLICY.windowSeconds, policy: "anonymous", slot, buckets };
    };
    if (route.access === "address") return ensureAllowed(addressAdmission());
    if (route.access === "registration") {
      // Its own, far smaller bucket per address: five new keys an hour, whatever else the address does.
      const registrations = this.options.registrationBuckets;
      const slot = registrations.addressSlot(request.address());
      const { capacity, windowSeconds } = REGISTRATION_POLICY;
      const result = registrations.take(slot, capacity, refillPerMs(capacity, windowSeconds), now);
      return ensureAllowed({ result, capacity, windowSeconds, policy: "registration", slot, buckets: registrations }, "REGISTRATION_RATE_LIMIT");
    }
    const key = request.apiKey;
    const verified = key.length === 0 ? undefined : this.options.keys.verify(key);
    if (!verified) {
      // Failed key checks draw from the address bucket, so keys cannot be guessed at speed.
      ensureAllowed(addressAdmission());
      throw new ApiError(key.length === 0 ? "MISSING_API_KEY" : "INVALID_API_KEY");
    }
    const capacity = verified.rateLimit;
    // One bucket per key record, always: the buckets grow with the key store.
    const slot = buckets.keySlot(verified.slot);
    const policy = capacity === KEY_POLICY.capacity ? "free" : "custom";
    if (route.isOwnerAction === true) {
      // The owner's bucket is refused on its own; the key's bucket is only read, for the headers and usage.
      const owners = this.options.ownerBuckets;
      const ownerSlot = owners.keySlot(verified.slot);
      const owned = owners.take(ownerSlot, OWNER_POLICY.capacity, refillPerMs(OWNER_POLICY.capacity, OWNER_POLICY.windowSeconds), now);
      ensureAllowed({ result: owned, capacity: OWNER_POLICY.capacity, windowSeconds: OWNER_POLICY.windowSeconds, policy: "owner", slot: ownerSlot, buckets: owners, key: verified, presentedKey: key });
      const result = buckets.peek(slot, capacity, refillPerMs(capacity, KEY_POLICY.windowSeconds), now);
      return { result, capacity, windowSeconds: KEY_POLICY.windowSeconds, policy, slot, buckets, key: verified, presentedKey: key };
    }
    const shared = this.options.sharedBuckets;
    if (shared === undefined) {
      const result = buckets.take(slot, capacity, refillPerMs(capacity, KEY_POLICY.windowSeconds), now);
      return ensureAllowed({ result, capacity, windowSeconds: KEY_POLICY.windowSeconds, policy, slot, buckets, key: verified, presentedKey: key });
    }
    const result = shared.take(verified.id, slot, capacity, now);
    if (result !== undefined) return ensureAllowed({ result, capacity, windowSeconds: KEY_POLICY.windowSeconds, policy, slot, buckets, key: verified, presentedKey: key });
    // This replica holds no token of this key: only this request waits for Redis.
    return shared.takeShared(verified.id, slot, capacity, now)
      .then((later) => ensureAllowed({ result: later, capacity, windowSeconds: KEY_POLICY.windowSeconds, policy, slot, buckets, key: verified, presentedKey: key }));
  }
}

function ensureAllowed(limit: Admission, code: "RATE_LIMIT_EXCEEDED" | "REGISTRATION_RATE_LIMIT" = "RATE_LIMIT_EXCEEDED"): Admission {
  if (limit.result.isAllowed) return limit;
  const what = code === "REGISTRATION_RATE_LIMIT" ? "registrations" : "requests";
  const error = new ApiError(
    code,
    { limit: limit.capacity, retryAfter: limit.result.retryAfterSeconds },
    `Rate limit of ${limit.capacity} ${what} per ${limit.windowSeconds === 3600 ? "hour" : `${limit.windowSeconds} s`} exceeded; retry in ${limit.result.retryAfterSeconds} s`,
  );
  throw Object.assign(error, { limit });
}
