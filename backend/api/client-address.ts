import ipaddr from "ipaddr.js";

/**
 * The client a request of the public API came from, for counting its failed attempts. The backend is reached through
 * the web server (README, Security), whose /api proxy appends the address it was connected from to X-Forwarded-For
 * (http-proxy-middleware's xfwd): from a loopback or private peer, the last entry of that header is the client; from
 * any other peer (the backend reached directly), the peer itself, whatever header it sends. An IPv6 client is
 * counted by its /64, the block one home or host is usually given.
 */
const TRUSTED_PEER_RANGES = new Set(["loopback", "private", "uniqueLocal", "linkLocal", "carrierGradeNat"]);

function parsed(address: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const text = address?.trim().replace(/^\[|\]$/g, "").split("%")[0];
  return text && ipaddr.isValid(text) ? ipaddr.process(text) : null;
}

function counted(ip: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (ip.kind() === "ipv4") return ip.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${ip.toString()}/64`).toString()}/64`;
}

export function clientAddress(peer: string | undefined, forwardedFor: string | undefined): string {
  const from = parsed(peer);
  if (!from) return "unknown";
  if (forwardedFor && TRUSTED_PEER_RANGES.has(from.range())) {
    const client = parsed(forwardedFor.split(",").at(-1));
    if (client) return counted(client);
  }
  return counted(from);
}
