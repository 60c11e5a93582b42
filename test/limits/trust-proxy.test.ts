import t from "tap";
import { addressKey, createClientAddress, normaliseAddress, parseTrustProxy } from "../../src/limits/trust-proxy.js";

const refuse = (reason: string) => new Error(reason);

t.test("TRUST_PROXY takes addresses and CIDRs, IPv4 and IPv6, and refuses anything else by name", async (t) => {
  t.equal(parseTrustProxy("", refuse), undefined, "unset: the header is ignored");
  t.equal(parseTrustProxy(" , ", refuse), undefined);
  t.same(parseTrustProxy("127.0.0.1, 10.0.0.0/8,::1 , fd00::/8", refuse), ["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8"]);
  t.throws(() => parseTrustProxy("localhost", refuse), /entry "localhost" is not an IP address or CIDR/);
  t.throws(() => parseTrustProxy("10.0.0.0/33", refuse), /prefix length outside 0–32/);
  t.throws(() => parseTrustProxy("fd00::/129", refuse), /outside 0–128/);
  t.throws(() => parseTrustProxy("10.0.0.0/8/1", refuse), /not an IP address or CIDR/);
  t.throws(() => parseTrustProxy("10.0.0.1/x", refuse), /prefix length/);
});

t.test("without TRUST_PROXY the peer counts and X-Forwarded-For is ignored", async (t) => {
  const address = createClientAddress(undefined);
  t.equal(address("127.0.0.1", "203.0.113.9"), "127.0.0.1");
  t.equal(address("::ffff:192.0.2.1", ""), "192.0.2.1", "an IPv4 peer on a dual-stack socket counts as IPv4");
});

t.test("behind a trusted proxy the rightmost untrusted X-Forwarded-For entry counts", async (t) => {
  const address = createClientAddress(parseTrustProxy("127.0.0.1, 10.0.0.0/8, fd00::/8", refuse));
  t.equal(address("127.0.0.1", "203.0.113.9"), "203.0.113.9");
  t.equal(address("127.0.0.1", "198.51.100.1, 203.0.113.9"), "203.0.113.9", "what the client sent left of the proxy's entry is not believed");
  t.equal(address("127.0.0.1", "198.51.100.1, 203.0.113.9, 10.1.2.3"), "203.0.113.9", "trusted hops on the right are skipped");
  t.equal(address("::ffff:127.0.0.1", "2001:db8::7"), "2001:db8::7", "IPv6 clients; a mapped IPv4 proxy");
  t.equal(address("fd00::5", "[2001:db8::8]:4711"), "2001:db8::8", "brackets and a port are dropped");
  t.equal(address("127.0.0.1", " 203.0.113.9:5000 "), "203.0.113.9");
  t.equal(address("127.0.0.1", "10.0.0.9, 10.0.0.8"), "10.0.0.9", "all hops ours: the leftmost is the origin");
  t.equal(address("127.0.0.1", "203.0.113.9, garbage"), "127.0.0.1", "a malformed entry from our own proxy: count the proxy");
  t.equal(address("127.0.0.1", ""), "127.0.0.1", "no header: the peer");
});

t.test("a peer that is not a trusted proxy cannot choose its address", async (t) => {
  const address = createClientAddress(parseTrustProxy("10.0.0.0/8", refuse));
  t.equal(address("192.0.2.50", "10.0.0.1"), "192.0.2.50");
  t.equal(address("192.0.2.50", "203.0.113.9"), "192.0.2.50");
});

t.test("normaliseAddress leaves everything but IPv4-mapped IPv6 alone", async (t) => {
  t.equal(normaliseAddress("::FFFF:10.0.0.1"), "10.0.0.1");
  t.equal(normaliseAddress("::ffff:abcd"), "::ffff:abcd");
  t.equal(normaliseAddress("2001:db8::1"), "2001:db8::1");
});

t.test("an IPv6 client is counted per prefix (64 bits by default); IPv4 and unparsable text stay as they are", async (t) => {
  t.equal(addressKey("2001:db8:1:2:a:b:c:d", 64), "2001:db8:1:2:0:0:0:0/64");
  t.equal(addressKey("2001:DB8:1:2::ffff", 64), "2001:db8:1:2:0:0:0:0/64", "one network, any case, compressed or not");
  t.equal(addressKey("2001:db8:1:2:a:b:c:d", 48), "2001:db8:1:0:0:0:0:0/48");
  t.equal(addressKey("2001:db8:1:2:a:b:c:d", 56), "2001:db8:1:0:0:0:0:0/56");
  t.equal(addressKey("2001:db8:1:2ff:a:b:c:d", 56), "2001:db8:1:200:0:0:0:0/56", "a prefix inside a group");
  t.equal(addressKey("2001:db8::7", 128), "2001:db8::7");
  t.equal(addressKey("203.0.113.9", 64), "203.0.113.9");
  t.equal(addressKey("not an address", 64), "not an address");
});
