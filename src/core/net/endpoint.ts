import ipaddr from "ipaddr.js";

/**
 * Hosts of WireGuard endpoints (`host:port`, `[IPv6]:port`) and gateway public hosts. They are written
 * into wg-quick text and handed to `wg`, so only three shapes pass: a dotted-quad IPv4 address, an
 * IPv6 address (bracketed in an endpoint), or an RFC 1123 host name. Anything else, such as
 * `[aaaa]`, `[::::]` or `999.1.1.1`, would only fail later on every peer that reads the config.
 */

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** An IPv6 address without a zone index (`%eth0` means nothing on another machine). */
const isIpv6 = (text: string) => text.includes(":") && !text.includes("%") && ipaddr.IPv6.isValid(text);

/** Why `host` is not an IPv4 address, an IPv6 address or a host name, or null. */
export function hostProblem(host: string): string | null {
  if (host.includes(":")) return isIpv6(host) ? null : `${host} is not an IPv6 address`;
  if (/^[\d.]+$/.test(host))
    return ipaddr.IPv4.isValidFourPartDecimal(host) ? null : `${host} is not an IPv4 address (four decimal parts, each 0-255)`;
  if (host.length > 253) return "A host name is at most 253 characters";
  if (!host.split(".").every((label) => HOST_LABEL.test(label))) {
    return `${host} is not a host name: labels of 1-63 letters, digits and inner hyphens, separated by single dots`;
  }
  return null;
}

/** Why `endpoint` (`host:port` or `[IPv6]:port`; the port is checked by the schema) has a bad host, or null. */
export function endpointHostProblem(endpoint: string): string | null {
  const bracketed = /^\[(.*)\]:\d+$/.exec(endpoint);
  if (bracketed) return isIpv6(bracketed[1]!) ? null : `[${bracketed[1]}] is not an IPv6 address`;
  const colon = endpoint.lastIndexOf(":");
  const host = endpoint.slice(0, colon);
  if (host.includes(":")) return "Write an IPv6 endpoint in brackets: [2001:db8::1]:51820";
  return hostProblem(host);
}

/**
 * A literal endpoint as WireGuard reports one: `IPv4:port` or `[IPv6]:port`, port 1-65535, no host name (an
 * address the data plane saw, never a name to resolve) and no zone index.
 */
export function isLiteralEndpoint(endpoint: string): boolean {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|(\d{1,3}(?:\.\d{1,3}){3})):(\d{1,5})$/.exec(endpoint);
  if (!match) return false;
  const port = Number(match[3]);
  if (port < 1 || port > 65535 || String(port) !== match[3]) return false;
  return match[2] !== undefined ? ipaddr.IPv4.isValidFourPartDecimal(match[2]) : isIpv6(match[1]!);
}
