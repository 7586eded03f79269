// What an operator does through the API before any gateway machine runs: an inventory region with three
// gateways, a network with three gateway nodes that await their agents' keys (no key is made here), a
// gateway-daemon enrolment token per gateway, a via_gateway policy through all three, a DNS record and a
// device enrolment key.
import { createHash } from "node:crypto";
import { expect } from "vitest";
import { byId, expectAnswer, type TypedApiClient } from "../support/api-client.ts";
import { run } from "../support/command.ts";
import type { Host } from "../support/netns.ts";

export interface ChainNetwork extends GatewayFleet {
  setPath(path: string[]): Promise<void>;
}

/** The gateway machines' side of the inventory: per machine an inventory gateway, a keyless gateway node and a token. */
export interface GatewayFleet {
  networkId: string;
  domain: string;
  inventoryGateways: string[];
  gatewayNodes: string[];
  /** The gateway nodes' overlay addresses, in address order: the DNS servers configs name. */
  gatewayAddresses: string[];
  tokens: string[];
  enrolmentKey: string;
}

/** A group and network (domain lab.internal) with one keyless gateway node per underlay address, and a device key. */
export async function createGatewayFleet(
  admin: TypedApiClient,
  { cidr, underlay }: { cidr: string; underlay: string[] },
): Promise<GatewayFleet> {
  const group = expectAnswer(await admin.POST("/api/v1/groups", { body: { name: "gateway-agents" } }), 201, "create group");
  const network = expectAnswer(
    await admin.POST("/api/v1/networks", { body: { groupId: group.id, name: "agents", cidr, dnsDomain: "lab.internal" } }),
    201,
    "create network",
  );
  const region = expectAnswer(await admin.POST("/api/v1/regions", { body: { name: "agents-lab" } }), 201, "create region");
  const fleet: GatewayFleet = {
    networkId: network.id,
    domain: "lab.internal",
    inventoryGateways: [],
    gatewayNodes: [],
    gatewayAddresses: [],
    tokens: [],
    enrolmentKey: "",
  };
  for (const [index, address] of underlay.entries()) {
    const name = `g${index + 1}`;
    const gateway = expectAnswer(
      await admin.POST("/api/v1/gateways", { body: { regionId: region.id, name: `gw-${name}` } }),
      201,
      "gateway",
    );
    fleet.inventoryGateways.push(gateway.id);
    // No publicKey: the node awaits the key its gateway's agent makes.
    const node = expectAnswer(
      await admin.POST("/api/v1/nodes", {
        body: { networkId: network.id, name, roles: ["gateway"], gatewayId: gateway.id, endpoint: `${address}:51820`, listenPort: 51820 },
      }),
      201,
      `create node ${name}`,
    );
    expect(node.publicKey, "a gateway node without a key awaits its agent").toBeNull();
    fleet.gatewayNodes.push(node.id);
    fleet.gatewayAddresses.push(node.address);
    const token = expectAnswer(
      await admin.POST("/api/v1/agents/enrolment-tokens", { body: { kind: "gateway-daemon", gatewayId: gateway.id } }),
      201,
      "enrolment token",
    );
    fleet.tokens.push(token.token);
  }
  fleet.gatewayAddresses.sort((a, b) => Number(a.split(".").pop()) - Number(b.split(".").pop()));
  const key = expectAnswer(
    await admin.POST("/api/v1/networks/{id}/enrolment-keys", { ...byId(network.id), body: { name: "device" } }),
    201,
    "enrolment key",
  );
  fleet.enrolmentKey = key.key;
  return fleet;
}

/** A via_gateway policy `lab` to `destination` through `path` (node or pool ids); returns a way to change the path. */
export async function createPolicy(admin: TypedApiClient, networkId: string, destination: string, path: string[]) {
  const policy = expectAnswer(
    await admin.POST("/api/v1/networks/{id}/routing-policies", {
      ...byId(networkId),
      body: { name: "lab", type: "via_gateway", destinationCidr: destination, gatewayPath: path },
    }),
    201,
    "create policy",
  );
  return {
    id: policy.id,
    async setPath(next: string[]) {
      expectAnswer(
        await admin.PUT("/api/v1/routing-policies/{id}", {
          ...byId(policy.id),
          body: { name: "lab", type: "via_gateway", destinationCidr: destination, gatewayPath: next },
        }),
        200,
        "replace policy",
      );
    },
  };
}

export async function createChainNetwork(
  admin: TypedApiClient,
  { cidr, destination, underlay }: { cidr: string; destination: string; underlay: string[] },
): Promise<ChainNetwork> {
  const fleet = await createGatewayFleet(admin, { cidr, underlay });
  const policy = await createPolicy(admin, fleet.networkId, destination, fleet.gatewayNodes);
  expectAnswer(
    await admin.POST("/api/v1/networks/{id}/dns/records", {
      ...byId(fleet.networkId),
      body: { name: "app", type: "A", value: destination.replace(/\.0\/24$/, ".10") },
    }),
    201,
    "create DNS record",
  );
  return { ...fleet, setPath: policy.setPath };
}

/**
 * The namespace `wgo gateway run --netns <host>` keeps a network's routing domain in, beside the host's
 * (cli/gateway/domains.mjs domainNames): the nodes' interfaces, routes, forwarding and DNS server live there.
 */
export const agentDomain = (hostNamespace: string, networkId: string) =>
  `${hostNamespace}-n${createHash("sha256").update(networkId).digest("hex").slice(0, 8)}`;

/** The interface `wgo gateway run` names after a node (cli/gateway/node-apply.mjs interfaceFor). */
export const agentInterface = (nodeId: string) => `wgo${createHash("sha256").update(nodeId).digest("hex").slice(0, 8)}`;

/** Bytes each gateway's interface moved to and from its chain neighbours (wireguard-go's own counters). */
export async function gatewayCounters(hosts: Record<"g1" | "g2" | "g3", Host>, chain: ChainNetwork) {
  const [n1, n2, n3] = chain.gatewayNodes as [string, string, string];
  // Plain `ip netns exec`, not host.run: wgo's wireguard-go sockets are in the real /run/wireguard.
  const dump = async (host: Host, nodeId: string) =>
    (await run(["ip", "netns", "exec", host.namespace, "wg", "show", agentInterface(nodeId), "dump"])).stdout;
  const peerKey = async (nodeId: string) => (await host(nodeId)).trim().split("\n")[0]!.split("\t")[1]!;
  const host = (nodeId: string) => dump(nodeId === n1 ? hosts.g1 : nodeId === n2 ? hosts.g2 : hosts.g3, nodeId);
  const counters = async (from: string, to: string) => {
    const key = await peerKey(to);
    const line = (await host(from)).split("\n").find((l) => l.startsWith(`${key}\t`));
    const [, , , , , rx, tx] = line?.split("\t") ?? [];
    return { rx: Number(rx ?? 0), tx: Number(tx ?? 0) };
  };
  const g2All = (await host(n2)).trim().split("\n").slice(1);
  return {
    g1ToG2: (await counters(n1, n2)).tx,
    g1ToG3: (await counters(n1, n3)).tx,
    g2ToG3: (await counters(n2, n3)).tx,
    g3FromG2: (await counters(n3, n2)).rx,
    g2Total: g2All.reduce((sum, l) => sum + Number(l.split("\t")[5] ?? 0) + Number(l.split("\t")[6] ?? 0), 0),
  };
}

/**
 * Whether every one of `gatewayNodes` (but those in `except`, say a killed one) reports the network's current
 * routing revision (runtime status: none lagging or unreported); with `dns`, the zone's revision too.
 */
export async function gatewaysReportCurrent(
  admin: TypedApiClient,
  networkId: string,
  gatewayNodes: readonly string[],
  options: { except?: readonly string[]; dns?: boolean } = {},
): Promise<boolean> {
  const status = expectAnswer(await admin.GET("/api/v1/networks/{id}/runtime-status", byId(networkId)), 200, "runtime status");
  const behind = new Set([...status.routing.lagging, ...status.routing.unreported]);
  const skipped = new Set(options.except ?? []);
  // DNS status counts only gateways (they serve the zone): in sync means each serves the current revision.
  if (options.dns && !status.dns.inSync) return false;
  return gatewayNodes.every((node) => skipped.has(node) || !behind.has(node));
}
