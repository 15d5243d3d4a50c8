import { describe, expect, it } from "vitest";
import { addressAllowed, HostNotFoundError, RefusedHostError, resolvePublicHost, type Lookup } from "../../backend/lib/public-address.js";

/** The SSRF rule of DESIGN.md §6 for hosts a user gives (a PostgreSQL destination, later webhooks). */

const PUBLIC = ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"];
const PRIVATE = ["127.0.0.1", "127.8.9.10", "10.1.2.3", "172.16.0.1", "192.168.1.1", "100.64.0.1", "169.254.1.1", "::1", "fd12:3456::1", "fe80::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1"];
const NEVER = ["0.0.0.0", "255.255.255.255", "224.0.0.1", "192.0.2.1", "198.51.100.7", "240.0.0.1", "::", "ff02::1", "2001:db8::1", "64:ff9b::a00:1", "2002:a00:1::"];
/**
 * IPv6 outside global unicast, or inside one of its special blocks: IPv4-compatible addresses (::a.b.c.d, which some
 * stacks route to the IPv4 address), SIIT, NAT64's local prefix, discard, site-local, Teredo, ORCHID, documentation,
 * benchmarking, AS112, segment routing and unassigned space. ipaddr.js calls several of them "unicast".
 */
const NOT_GLOBAL_V6 = [
  "::7f00:1",
  "::a9fe:a9fe",
  "::a00:1",
  "::808:808",
  "::127.0.0.1",
  "::ffff:0:7f00:1",
  "64:ff9b:1::a00:1",
  "100::1",
  "fec0::1",
  "2001::1",
  "2001:2::1",
  "2001:10::1",
  "2001:20::1",
  "2001:4:112::1",
  "2620:4f:8000::1",
  "3fff::1",
  "5f00::1",
  "4000::1",
  "e000::1",
  "1::1",
];
const METADATA = ["169.254.169.254", "169.254.170.2", "100.100.100.200", "168.63.129.16", "fd00:ec2::254", "::ffff:169.254.169.254"];

/** A resolver answering fixed addresses, as a DNS server under an attacker's control would. */
const answers =
  (table: Record<string, string[]>): Lookup =>
  async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

describe("addressAllowed", () => {
  it("allows public unicast addresses", () => {
    for (const address of PUBLIC) expect(addressAllowed(address), address).toBe(true);
  });
  it("refuses loopback, private, CGNAT, link-local and unique-local addresses unless private hosts are allowed", () => {
    for (const address of PRIVATE) {
      expect(addressAllowed(address), address).toBe(false);
      expect(addressAllowed(address, { allowPrivate: true }), address).toBe(true);
    }
  });
  it("always refuses unspecified, broadcast, multicast, reserved and translated addresses", () => {
    for (const address of NEVER) expect(addressAllowed(address, { allowPrivate: true }), address).toBe(false);
  });
  it("allows only global unicast IPv6 (2000::/3 without its special blocks), whatever the setting", () => {
    for (const address of NOT_GLOBAL_V6) {
      expect(addressAllowed(address), address).toBe(false);
      expect(addressAllowed(address, { allowPrivate: true }), address).toBe(false);
    }
    for (const address of ["2a00:1450:4001:80b::200e", "2606:4700::6810:84e5", "2c0f:fb50:4003::1"]) expect(addressAllowed(address), address).toBe(true);
  });
  it("always refuses cloud metadata addresses, even with private hosts allowed", () => {
    for (const address of METADATA) expect(addressAllowed(address, { allowPrivate: true }), address).toBe(false);
  });
  it("refuses what is not an address", () => {
    expect(addressAllowed("example.com")).toBe(false);
    expect(addressAllowed("0x7f.1")).toBe(false);
  });
});

describe("resolvePublicHost", () => {
  const env = {};
  const allowing = { TRIBUTARY_ALLOW_PRIVATE_HOSTS: "true" };

  it("answers the checked address of a public name, keeping the name", async () => {
    const lookup = answers({ "db.example.com": ["203.0.114.9", "2606:4700::1"] });
    expect(await resolvePublicHost("db.example.com", { env, lookup })).toEqual({ host: "db.example.com", address: "203.0.114.9", family: 4 });
  });

  it("refuses a name with any private address among its answers (a rebinding name mixes them)", async () => {
    const lookup = answers({ "rebind.example.com": ["8.8.8.8", "127.0.0.1"] });
    const refused = resolvePublicHost("rebind.example.com", { env, lookup });
    await expect(refused).rejects.toBeInstanceOf(RefusedHostError);
    await expect(refused).rejects.toThrow("rebind.example.com is not a public address: Tributary connects only to hosts on the public internet");
  });

  it("never tells what a refused name resolves to: the address goes to the server's log only", async () => {
    const logged: Record<string, unknown>[] = [];
    const log = { warn: (fields: Record<string, unknown>) => void logged.push(fields) };
    const lookup = answers({ "priv.test": ["127.0.0.9"], "v6.test": ["::1"] });
    for (const host of ["priv.test", "v6.test"]) {
      const refused = await resolvePublicHost(host, { env, lookup, log }).catch((error: unknown) => error as RefusedHostError);
      expect(refused).toBeInstanceOf(RefusedHostError);
      expect((refused as Error).message).toBe(`${host} is not a public address: Tributary connects only to hosts on the public internet`);
      expect((refused as Error).message).not.toMatch(/127\.0\.0\.9|::1|resolves/);
    }
    expect(logged).toEqual([
      { host: "priv.test", address: "127.0.0.9" },
      { host: "v6.test", address: "::1" },
    ]);
  });

  it("refuses loopback by name and by literal without the setting, allows it with the setting", async () => {
    const lookup = answers({ localhost: ["127.0.0.1"] });
    await expect(resolvePublicHost("localhost", { env, lookup })).rejects.toBeInstanceOf(RefusedHostError);
    await expect(resolvePublicHost("127.0.0.1", { env, lookup })).rejects.toThrow("127.0.0.1 is not a public address");
    await expect(resolvePublicHost("[::1]", { env, lookup })).rejects.toBeInstanceOf(RefusedHostError);
    expect(await resolvePublicHost("localhost", { env: allowing, lookup })).toEqual({ host: "localhost", address: "127.0.0.1", family: 4 });
    expect(await resolvePublicHost("[::1]", { env: allowing, lookup })).toEqual({ host: "[::1]", address: "::1", family: 6 });
  });

  it("the setting must say true", async () => {
    await expect(resolvePublicHost("127.0.0.1", { env: { TRIBUTARY_ALLOW_PRIVATE_HOSTS: "1" } })).rejects.toBeInstanceOf(RefusedHostError);
    await expect(resolvePublicHost("127.0.0.1", { env: { TRIBUTARY_ALLOW_PRIVATE_HOSTS: " TRUE " } })).resolves.toMatchObject({ address: "127.0.0.1" });
  });

  it("refuses metadata services whatever the setting", async () => {
    const lookup = answers({ "metadata.google.internal": ["169.254.169.254"] });
    await expect(resolvePublicHost("metadata.google.internal", { env: allowing, lookup })).rejects.toBeInstanceOf(RefusedHostError);
    await expect(resolvePublicHost("169.254.169.254", { env: allowing, lookup })).rejects.toBeInstanceOf(RefusedHostError);
  });

  it("refuses IPv4-compatible IPv6 literals and names answering them", async () => {
    for (const literal of ["[::7f00:1]", "[::a9fe:a9fe]", "::7f00:1"]) {
      await expect(resolvePublicHost(literal, { env })).rejects.toBeInstanceOf(RefusedHostError);
      await expect(resolvePublicHost(literal, { env: allowing })).rejects.toBeInstanceOf(RefusedHostError);
    }
    const lookup = answers({ "compat.example.com": ["::7f00:1"] });
    await expect(resolvePublicHost("compat.example.com", { env: allowing, lookup })).rejects.toBeInstanceOf(RefusedHostError);
  });

  it("answers an IPv4-mapped address as the IPv4 address it is", async () => {
    const lookup = answers({ "mapped.example.com": ["::ffff:8.8.4.4"] });
    expect(await resolvePublicHost("mapped.example.com", { env, lookup })).toEqual({ host: "mapped.example.com", address: "8.8.4.4", family: 4 });
  });

  it("says when a name does not resolve", async () => {
    const lookup = answers({});
    await expect(resolvePublicHost("nowhere.example.com", { env, lookup })).rejects.toBeInstanceOf(HostNotFoundError);
    await expect(resolvePublicHost("nowhere.example.com", { env, lookup })).rejects.toThrow("host nowhere.example.com was not found");
  });

  it("resolves names with the system resolver by default (localhost: loopback, refused without the setting)", async () => {
    await expect(resolvePublicHost("localhost", { env })).rejects.toBeInstanceOf(RefusedHostError);
    await expect(resolvePublicHost("localhost", { env: allowing })).resolves.toMatchObject({ host: "localhost" });
  });
});
