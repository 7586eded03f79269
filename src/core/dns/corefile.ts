import ipaddr from "ipaddr.js";
import { isDomainName } from "./names";

/**
 * CoreDNS configuration serving one network's zone from the file renderZone produces.
 *
 * Layout: a single server block for `<domain>:53`. There is deliberately no `.` catch-all block:
 * CoreDNS answers REFUSED for names no server block covers, so the server is authoritative for
 * the network's zone and never forwards or recurses for anything else (no open resolver).
 */

/** How often the file plugin re-reads the zone; it reloads only when the SOA serial differs. */
export const ZONE_RELOAD_INTERVAL = "30s";

export interface CorefileOptions {
  /** Absolute path of the zone file on the DNS host, e.g. defaultZoneFilePath(domain). */
  zoneFilePath: string;
  /** An address to bind to (the `bind` plugin); CoreDNS listens on every interface without it. */
  listen?: string;
}

/** Where the documentation tells operators to put the zone file beside the Corefile. */
export function defaultZoneFilePath(domain: string): string {
  return `/etc/coredns/zones/${domain}.zone`;
}

/**
 * The Corefile is a whitespace-separated token language with `{`, `}`, `#` and quotes as syntax,
 * so a path holding any of them would change the configuration's meaning, not just the path.
 */
const SAFE_PATH = /^\/[A-Za-z0-9._/-]+$/;

function bindAddress(listen: string): string {
  if (ipaddr.IPv4.isValidFourPartDecimal(listen)) return ipaddr.IPv4.parse(listen).toString();
  if (listen.includes(":") && !listen.includes("%") && ipaddr.IPv6.isValid(listen)) return ipaddr.IPv6.parse(listen).toString();
  throw new Error(`Corefile listen address ${listen} is not an IPv4 or IPv6 address`);
}

export function renderCorefile(domain: string, options: CorefileOptions): string {
  const zone = domain.toLowerCase().replace(/\.$/, "");
  if (!isDomainName(zone)) throw new Error(`Zone domain ${domain} is not a valid domain name`);
  if (!SAFE_PATH.test(options.zoneFilePath) || options.zoneFilePath.split("/").includes("..")) {
    throw new Error(`Zone file path ${options.zoneFilePath} must be absolute and hold only letters, digits, . _ - /`);
  }
  const lines = [
    `# CoreDNS for the overlay network zone ${zone}. Serves only this zone; other names are REFUSED.`,
    `${zone}:53 {`,
    ...(options.listen === undefined ? [] : [`    bind ${bindAddress(options.listen)}`]),
    `    file ${options.zoneFilePath} ${zone} {`,
    `        reload ${ZONE_RELOAD_INTERVAL}`,
    "    }",
    "    errors",
    "    log",
    "}",
  ];
  return `${lines.join("\n")}\n`;
}
