import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { createLogger } from "./log.js";

/**
 * The rule for hosts a user gives (DESIGN.md §6): the server resolves the name once, refuses it when any of its
 * addresses is not on the public internet, and connects to the very address it checked — so a DNS answer that
 * changes between the check and the connection (rebinding) cannot send it elsewhere. Loopback and private networks
 * are allowed only when the operator says so (TRIBUTARY_ALLOW_PRIVATE_HOSTS=true: the tests, a self-hosted database
 * on the same network); cloud metadata services, multicast, broadcast and reserved ranges never are.
 */

/**
 * What is public is an allow-list, never "whatever the library does not name": an IPv4 address in ipaddr.js's
 * "unicast" range (every IANA special-purpose block is named there: private, loopback, CGNAT, link-local,
 * documentation, benchmarking, 6to4 relay, AS112, AMT, reserved, multicast, broadcast), and an IPv6 address inside
 * global unicast 2000::/3 that none of the special blocks there holds (Teredo, 6to4, ORCHID, documentation,
 * benchmarking, AS112, AMT, 2001::/23). So IPv4-compatible (::7f00:1), NAT64 (64:ff9b::/96), SIIT
 * (::ffff:0:0:0/96), discard, site-local and unassigned IPv6 space are refused: they may reach an internal address.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/** The ranges (ipaddr.js's names, per family) TRIBUTARY_ALLOW_PRIVATE_HOSTS opens: loopback and private networks only. */
const PRIVATE_RANGES: Record<"ipv4" | "ipv6", ReadonlySet<string>> = {
  ipv4: new Set(["loopback", "private", "linkLocal", "carrierGradeNat"]),
  ipv6: new Set(["loopback", "uniqueLocal", "linkLocal"]),
};

function isPublic(ip: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (ip.range() !== "unicast") return false;
  return ip.kind() === "ipv4" || (ip as ipaddr.IPv6).match(GLOBAL_UNICAST_V6 as [ipaddr.IPv6, number]);
}

/** Cloud metadata and host services reachable from inside a cloud VM: never a user's database. */
const METADATA_ADDRESSES = new Set(["169.254.169.254", "169.254.170.2", "169.254.169.123", "168.63.129.16", "100.100.100.200", "fd00:ec2::254"]);

/** The settings the rule reads (process.env, or a test's own). */
export type Settings = Readonly<Record<string, string | undefined>>;

export function privateHostsAllowed(env: Settings = process.env): boolean {
  return env.TRIBUTARY_ALLOW_PRIVATE_HOSTS?.trim().toLowerCase() === "true";
}

/**
 * An address as ipaddr.js parses it, an IPv4-mapped IPv6 address (::ffff:10.0.0.1) as the IPv4 address it is. An
 * IPv6 text is first put in its canonical form by the URL parser: ipaddr.js reads a dotted tail after "::" as
 * IPv4-mapped (::127.0.0.1 is the IPv4-compatible ::7f00:1, not ::ffff:7f00:1).
 */
function parsed(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  let text = address;
  if (isIP(address) === 6) {
    const [bare, zone] = address.split("%", 2);
    const canonical = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
    text = zone === undefined ? canonical : `${canonical}%${zone}`;
  }
  const ip = ipaddr.parse(text);
  return ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
}

/** Whether the server may connect to `address` (an IP literal) for a user. */
export function addressAllowed(address: string, options: { allowPrivate?: boolean } = {}): boolean {
  if (isIP(address) === 0) return false;
  const ip = parsed(address);
  if (METADATA_ADDRESSES.has(ip.toNormalizedString()) || METADATA_ADDRESSES.has(ip.toString())) return false;
  return isPublic(ip) || (options.allowPrivate === true && PRIVATE_RANGES[ip.kind()].has(ip.range()));
}

/**
 * A host refused by the rule: a 4xx with this sentence, the user can fix it. The sentence never says what a name
 * resolves to (that would map the server's internal network for whoever asks); the address is logged server-side only.
 */
export class RefusedHostError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} is not a public address: Tributary connects only to hosts on the public internet`);
    this.name = "RefusedHostError";
  }
}

/** Where refusals are logged (with the address refused): the process's log, or a test's. */
export type RefusalLog = { warn(fields: Record<string, unknown>, message: string): void };
let defaultLog: RefusalLog | undefined;
const refusalLog = (): RefusalLog => (defaultLog ??= createLogger(undefined, "public-address"));

/** A name that does not resolve. */
export class HostNotFoundError extends Error {
  constructor(readonly host: string) {
    super(`host ${host} was not found`);
    this.name = "HostNotFoundError";
  }
}

export interface CheckedHost {
  /** The name the user gave (for TLS: the certificate's name to check). */
  host: string;
  /** The address that was checked: connect to this one, never to `host` again. */
  address: string;
  family: 4 | 6;
}

export type Lookup = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * Resolves `host` once and answers the address to connect to; throws RefusedHostError when one of its addresses is
 * not allowed (an attacker's name may mix a public address with a private one), HostNotFoundError when it has none.
 */
export async function resolvePublicHost(host: string, options: { env?: Settings; lookup?: Lookup; log?: RefusalLog } = {}): Promise<CheckedHost> {
  const allowPrivate = privateHostsAllowed(options.env);
  const literal = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  let addresses: { address: string; family: number }[];
  if (isIP(literal) !== 0) addresses = [{ address: literal, family: isIP(literal) }];
  else {
    try {
      addresses = await (options.lookup ?? systemLookup)(host);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "ENOTFOUND" || code === "ENODATA" || code === "EAI_NONAME") throw new HostNotFoundError(host);
      throw error;
    }
  }
  if (addresses.length === 0) throw new HostNotFoundError(host);
  for (const { address } of addresses) {
    if (addressAllowed(address, { allowPrivate })) continue;
    (options.log ?? refusalLog()).warn({ host, address }, "Refused a host that is not on the public internet");
    throw new RefusedHostError(host, address);
  }
  const first = addresses[0]!;
  const ip = parsed(first.address);
  return { host, address: ip.toString(), family: ip.kind() === "ipv4" ? 4 : 6 };
}
