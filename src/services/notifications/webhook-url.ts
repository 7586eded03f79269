import ipaddr from "ipaddr.js";

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * Names that resolve only inside a site, a cluster or a cloud (never to a public receiver), and the
 * special-use names no public host can have: RFC 6761 (.test, .invalid, .example), RFC 6762 appendix G
 * (.local and the private TLDs it lists: .lan, .home, .corp, .intranet, .private, .internal), RFC 8375
 * (.home.arpa, and .arpa is reverse-lookup only), RFC 7686 (.onion), RFC 9476 (.alt), Kubernetes
 * service names (.svc, .cluster.local) and cloud metadata names (metadata.google.internal).
 */
const INTERNAL_SUFFIXES = [
  ".internal",
  ".local",
  ".localdomain",
  ".lan",
  ".home",
  ".corp",
  ".intranet",
  ".private",
  ".arpa",
  ".svc",
  ".test",
  ".invalid",
  ".example",
  ".onion",
  ".alt",
];

const isLoopbackName = (host: string) => host === "localhost" || host.endsWith(".localhost");

/** Only globally routable unicast addresses; anything ipaddr.js classes otherwise (private, link-local, unique-local,
 * CGNAT, multicast, reserved, NAT64, IPv4-mapped private...) is refused. */
function addressVerdict(host: string, allowLoopback: boolean): string | null {
  const address = ipaddr.process(host);
  // IPv4-compatible IPv6 (::/96, deprecated) classes as unicast yet embeds any IPv4 address, 169.254.169.254 too.
  const range = address.range();
  if (range === "unicast" && address.kind() === "ipv6" && address.match(ipaddr.IPv6.parse("::"), 96)) {
    return `${host} is an IPv4-compatible IPv6 address; webhooks go to public addresses only`;
  }
  if (range === "unicast") return null;
  if (range === "loopback" && allowLoopback) return null;
  return `${host} is a ${range} address; webhooks go to public addresses only`;
}

/**
 * SSRF guard for webhook targets, applied when a channel is saved and again before every attempt.
 * Workers resolve DNS inside fetch, so only literal addresses and well-known internal names can be
 * refused here; redirects are never followed, so a public URL cannot bounce a delivery inward.
 */
export function checkWebhookUrl(text: string, allowHttpLoopback: boolean): UrlVerdict {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: "not an absolute URL" };
  }
  if (url.username || url.password) return { ok: false, reason: "credentials in the URL are not allowed" };
  // "localhost." and "localhost" are one host to a resolver: drop the root label's dots before the name rules.
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .toLowerCase()
    .replace(/\.+$/, "");
  if (host === "" || host.startsWith(".") || host.includes("..")) return { ok: false, reason: `${url.hostname} is not a valid host name` };
  const loopbackName = isLoopbackName(host);
  const literal = ipaddr.isValid(host);
  const loopback = loopbackName || (literal && ipaddr.process(host).range() === "loopback");
  if (url.protocol === "http:") {
    if (!(allowHttpLoopback && loopback)) return { ok: false, reason: "webhooks must use https" };
  } else if (url.protocol !== "https:") {
    return { ok: false, reason: "webhooks must use https" };
  }
  if (loopbackName) return allowHttpLoopback ? { ok: true, url } : { ok: false, reason: `${host} is a loopback name` };
  if (literal) {
    const reason = addressVerdict(host, allowHttpLoopback);
    return reason ? { ok: false, reason } : { ok: true, url };
  }
  if (!host.includes(".")) return { ok: false, reason: `${host} is not a public host name` };
  if (INTERNAL_SUFFIXES.some((suffix) => `.${host}`.endsWith(suffix))) return { ok: false, reason: `${host} is an internal host name` };
  return { ok: true, url };
}
