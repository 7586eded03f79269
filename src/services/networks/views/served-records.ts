import { nodeNameProblem, type DnsRecord } from "../../../core/dns";
import { mustParseCidr } from "../../../core/net/cidr";
import { allocateAddress, parseAddress } from "../../../core/net/ipam";

interface NodeLike {
  name: string;
  address: string;
  isGateway: boolean;
}

const isV6 = (address: string) => address.includes(":");

/**
 * The served record set: the manual records plus one A/AAAA per node, `<node-name>.<dnsDomain>`.
 * A manual A, AAAA or CNAME at a node's name wins: the node's automatic record is left out (so an
 * operator can point a node's name elsewhere without a conflict). A TXT there sits beside it.
 * A node the zone cannot hold (a name stored before the zone's own names and the 253-character limit
 * were enforced) gets no record: it must never replace `ns` or make the zone fail to load.
 */
export function servedRecords(manual: DnsRecord[], nodes: NodeLike[], domain: string): DnsRecord[] {
  const manualNames = new Set(manual.filter((record) => record.type !== "TXT").map((record) => record.name));
  const automatic = nodes
    .filter((node) => !manualNames.has(node.name) && nodeNameProblem(node.name, domain) === null)
    .map((node): DnsRecord => ({ name: node.name, type: isV6(node.address) ? "AAAA" : "A", value: node.address, ttl: 300 }));
  return [...manual, ...automatic];
}

/**
 * Where the zone's `ns` host points: the gateway node with the lowest address (gateways run the DNS
 * server), else the network's first usable address. A function of the node set, so still deterministic.
 */
export function nameServerAddress(cidr: string, nodes: NodeLike[]): string {
  const numeric = (address: string) => parseAddress(address)?.value ?? 0n;
  const gateways = nodes
    .filter((node) => node.isGateway)
    .map((node) => node.address)
    .sort((a, b) => (numeric(a) < numeric(b) ? -1 : numeric(a) > numeric(b) ? 1 : 0));
  const network = mustParseCidr(cidr);
  return gateways[0] ?? allocateAddress(network, []) ?? network.text.split("/")[0]!;
}
