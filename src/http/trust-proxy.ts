// TRUST_PROXY (docs/deploy.md#what-deploying-it-promises): which peers are our reverse proxies, and the client address a request
// is counted under. Behind a trusted proxy that is the rightmost X-Forwarded-For entry that is not
// itself a trusted proxy; from any other peer, or with TRUST_PROXY unset, the header is ignored and
// the peer address counts, so no client can choose the address it is limited under.

import { BlockList, isIP, isIPv4 } from "node:net";

/** The validated TRUST_PROXY entries (addresses and CIDRs); plain strings, so Config crosses into worker threads. */
export type ProxyTrust = readonly string[];

/** "10.0.0.1, 192.168.0.0/16, ::1, fd00::/8" → its entries; `refuse` builds the error for a bad one. */
export function parseTrustProxy(text: string, refuse: (reason: string) => Error): ProxyTrust | undefined {
  const entries = text.split(",").map((entry) => entry.trim()).filter((entry) => entry.length > 0);
  if (entries.length === 0) return undefined;
  for (const entry of entries) {
    const [address = "", prefix, extra] = entry.split("/");
    const family = isIP(address);
    if (family === 0 || extra !== undefined) throw refuse(`entry "${entry}" is not an IP address or CIDR (like 127.0.0.1, 10.0.0.0/8 or fd00::/8)`);
    if (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128))) {
      throw refuse(`entry "${entry}" has a prefix length outside 0–${family === 4 ? 32 : 128}`);
    }
  }
  return Object.freeze(entries);
}

/** Compiled once per server: `(peer, forwardedFor) → the address the request is limited under`. */
export type ClientAddress = (peer: string, forwardedFor: string) => string;

export function createClientAddress(trust: ProxyTrust | undefined): ClientAddress {
  if (trust === undefined) return (peer) => normaliseAddress(peer);
  const list = new BlockList();
  for (const entry of trust) {
    const [address = "", prefix] = entry.split("/");
    const type = isIPv4(address) ? "ipv4" : "ipv6";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  const isTrusted = (address: string): boolean => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
  };
  return (peer, forwardedFor) => {
    const address = normaliseAddress(peer);
    if (forwardedFor.length === 0 || !isTrusted(address)) return address;
    const entries = forwardedFor.split(",");
    let client = address;
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = forwardedEntry(entries[i] ?? "");
      // Our own proxy appended the entry to the right of anything a client sent, so a malformed
      // one means the proxy is misconfigured: count the proxy rather than believe the rest.
      if (entry === undefined) return address;
      client = entry;
      if (!isTrusted(entry)) return entry;
    }
    // Every hop is one of ours (a request from inside): the leftmost is the origin.
    return client;
  };
}

/** `::ffff:1.2.3.4` (an IPv4 peer on a dual-stack socket) counts as 1.2.3.4. */
export function normaliseAddress(address: string): string {
  if (address.length > 7 && address.slice(0, 7).toLowerCase() === "::ffff:" && isIPv4(address.slice(7))) return address.slice(7);
  return address;
}

/** One X-Forwarded-For entry → its address: trims, drops `[…]` around IPv6 and a port; undefined if not an address. */
function forwardedEntry(text: string): string | undefined {
  let entry = text.trim();
  if (entry.startsWith("[")) entry = entry.slice(1, entry.indexOf("]") === -1 ? entry.length : entry.indexOf("]"));
  else if (entry.indexOf(":") !== -1 && entry.indexOf(":") === entry.lastIndexOf(":")) entry = entry.slice(0, entry.indexOf(":"));
  return isIP(entry) === 0 ? undefined : normaliseAddress(entry);
}

/** IPv6 clients are counted per this prefix by default: one /64 is one subscriber's network, and a host picks any address in it. */
export const DEFAULT_IPV6_PREFIX = 64;

/**
 * What a client address is limited under: an IPv4 address as it is, an IPv6 address reduced to its
 * first `ipv6Prefix` bits (`2001:db8:1:2:a:b:c:d` → `2001:db8:1:2::/64`), so one host cannot hop
 * between the addresses of its own network to get fresh buckets. Anything unparsable stays as it is.
 */
export function addressKey(address: string, ipv6Prefix: number): string {
  if (isIP(address) !== 6 || ipv6Prefix >= 128) return address;
  const groups = ipv6Groups(address);
  if (groups === undefined) return address;
  let key = "";
  for (let i = 0; i < 8; i++) {
    const bits = Math.max(0, Math.min(16, ipv6Prefix - i * 16));
    const group = bits === 0 ? 0 : (groups[i] as number) & ((0xffff << (16 - bits)) & 0xffff);
    key += (i === 0 ? "" : ":") + group.toString(16);
  }
  return `${key}/${ipv6Prefix}`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 split in two). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address;
  const tail: number[] = [];
  const dotted = text.lastIndexOf(":");
  if (text.indexOf(".", dotted) !== -1) {
    const parts = text.slice(dotted + 1).split(".").map(Number);
    tail.push(((parts[0] ?? 0) << 8) | (parts[1] ?? 0), ((parts[2] ?? 0) << 8) | (parts[3] ?? 0));
    text = `${text.slice(0, dotted + 1)}0:0`;
  }
  const [head = "", rest] = text.split("::");
  const parse = (part: string) => (part.length === 0 ? [] : part.split(":").map((group) => parseInt(group, 16)));
  let groups: number[];
  if (rest === undefined) groups = parse(head);
  else {
    const left = parse(head);
    const right = parse(rest);
    groups = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  }
  if (tail.length === 2) groups.splice(6, 2, ...tail);
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined;
}
