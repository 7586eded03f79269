// The fake host's UDP sockets (test/wgo/support/fake-system.ts): the ports other programs hold (a test sets
// `host.udpPorts`) and every WireGuard link's ListenPort, per namespace, as /proc/net/udp lists them and as
// `wg setconf` meets them (EADDRINUSE); and the config lines real `wg` refuses.

interface UdpHost {
  links: Map<string, { ns?: string; conf: string }>;
  udpPorts: Map<string, Set<number>>;
}

/** The ListenPort a config file binds (null: WireGuard picks one). */
function listenPortOf(conf: string): number | null {
  const match = /^\s*ListenPort\s*=\s*(\d+)/im.exec(conf);
  return match ? Number(match[1]) : null;
}

/** UDP ports bound in namespace `ns` ("" for the host's own): other programs' and every WireGuard link's there. */
function boundPorts(host: UdpHost, ns: string, except?: string): number[] {
  const links = [...host.links].filter(([name, l]) => name !== except && (l.ns ?? "") === ns).map(([, l]) => listenPortOf(l.conf));
  return [...(host.udpPorts.get(ns) ?? []), ...links.filter((port): port is number => port !== null)];
}

/**
 * Why real `wg setconf`/`syncconf` would refuse `conf` for link `ifname`, or null: an empty `AllowedIPs =`
 * line (checked against wireguard-tools 1.0.20210914), or a ListenPort another socket in the namespace holds.
 */
export function wgRefuses(host: UdpHost, ifname: string, conf: string, ns: string): string | null {
  if (/^\s*AllowedIPs\s*=\s*$/m.test(conf)) return "Line unrecognized: `AllowedIPs='\nConfiguration parsing error";
  const port = listenPortOf(conf);
  if (port !== null && boundPorts(host, ns, ifname).includes(port)) return "Unable to modify interface: Address already in use";
  return null;
}

/** /proc/net/udp and udp6 as the kernel prints them (header, then one socket a line, the port in hex). */
export function procNetUdp(host: UdpHost, ns: string): string {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, "0");
  const tail = "07 00000000:00000000 00:00000000 00000000     0        0 1 2 0 0";
  const v4 = boundPorts(host, ns).map((port, i) => `  ${i}: 00000000:${hex(port)} 00000000:0000 ${tail}`);
  const v6 = boundPorts(host, ns).map((port, i) => `  ${i}: ${"0".repeat(32)}:${hex(port)} ${"0".repeat(32)}:0000 ${tail}`);
  return ["   sl  local_address rem_address   st", ...v4, "  sl  local_address                         remote_address", ...v6, ""].join(
    "\n",
  );
}
