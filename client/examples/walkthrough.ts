/**
 * The spec's walkthrough with the typed client, start to finish: sign in, make a group and a network, two
 * gateway nodes behind inventory gateways, a 2-hop via_gateway policy and a DNS record, then read what the
 * control plane generates: a node's WireGuard configuration (JSON with its routing intents, and wg-quick
 * text), the network's Corefile (and its ETag: a second read answers 304), and the runtime status.
 *
 * Every call is checked against the API's own document at compile time (paths, bodies, answers).
 * `run-walkthrough.ts` runs it from the command line against a server (e.g. `npm run dev`).
 */
import {
  type ApiClient,
  asText,
  byId,
  createApiClient,
  errorCode,
  etagOf,
  ifNoneMatch,
  isNotModified,
  json,
  type Schema,
} from "../index.js";

export interface WalkthroughOptions {
  baseUrl: string;
  /** A platform admin: the gateway inventory (regions, gateways) is theirs to fill. */
  email: string;
  password: string;
  fetch?: (request: Request) => Promise<Response>;
  /** Makes names unique, so the walkthrough can run again on the same server. */
  suffix?: string;
}

export interface WalkthroughResult {
  network: Schema<"Network">;
  gatewayNodes: Schema<"Node">[];
  laptop: Schema<"Node">;
  policy: Schema<"RoutingPolicy">;
  record: Schema<"DnsRecord">;
  laptopConfig: Schema<"NodeConfig">;
  laptopWgQuick: string;
  corefile: string;
  corefileUnchanged: boolean;
  runtimeStatus: Schema<"RuntimeStatus">;
}

/** The body of a successful call; a refused one throws with the API's error code and message. */
function expectData<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined || result.error !== undefined) {
    const code = errorCode(result) ?? "no body";
    throw new Error(`${what}: HTTP ${result.response.status} (${code}) ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

/**
 * A stand-in WireGuard public key (32 random bytes, base64). A real gateway's agent makes its own key pair and
 * registers only the public half (`wgo gateway run`); a laptop's comes from `wgo enrol`.
 */
function standInPublicKey(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
}

async function signIn(options: WalkthroughOptions): Promise<ApiClient> {
  const anonymous = createApiClient({ baseUrl: options.baseUrl, fetch: options.fetch });
  const signedIn = expectData(
    await anonymous.POST("/api/v1/auth/login", { body: { email: options.email, password: options.password } }),
    "sign in",
  );
  if (!("accessToken" in signedIn)) throw new Error("this account asks for an MFA code: finish with POST /api/v1/auth/mfa/verify");
  return createApiClient({ baseUrl: options.baseUrl, fetch: options.fetch, token: signedIn.accessToken });
}

/** Two inventory gateways in one region: a gateway node must name one its network may use. */
async function inventoryGateways(api: ApiClient, suffix: string) {
  const region = expectData(await api.POST("/api/v1/regions", { body: { name: `walkthrough-${suffix}` } }), "create region");
  const names = ["edge-a", "edge-b"];
  return Promise.all(
    names.map(async (name) =>
      expectData(
        await api.POST("/api/v1/gateways", { body: { regionId: region.id, name: `${name}-${suffix}`, publicHost: `${name}.example.net` } }),
        `create gateway ${name}`,
      ),
    ),
  );
}

export async function runWalkthrough(options: WalkthroughOptions): Promise<WalkthroughResult> {
  const suffix = options.suffix ?? Date.now().toString(36);
  const api = await signIn(options);
  const gateways = await inventoryGateways(api, suffix);

  const group = expectData(await api.POST("/api/v1/groups", { body: { name: `walkthrough-${suffix}` } }), "create group");
  const network = expectData(
    await api.POST("/api/v1/networks", { body: { groupId: group.id, name: `walkthrough-${suffix}`, cidr: "10.42.0.0/24" } }),
    "create network",
  );

  const gatewayNodes: Schema<"Node">[] = [];
  for (const [index, gateway] of gateways.entries()) {
    const body = {
      networkId: network.id,
      name: `gw-${index + 1}`,
      publicKey: standInPublicKey(),
      roles: ["gateway" as const],
      gatewayId: gateway.id,
      endpoint: `${gateway.publicHost}:51820`,
      listenPort: 51820,
    };
    gatewayNodes.push(expectData(await api.POST("/api/v1/nodes", { body }), `create gateway node ${body.name}`));
  }
  const laptop = expectData(
    await api.POST("/api/v1/nodes", { body: { networkId: network.id, name: "laptop", publicKey: standInPublicKey() } }),
    "create laptop node",
  );

  // Traffic for 192.168.50.0/24 leaves the laptop through gw-1, then gw-2, in that order.
  const policy = expectData(
    await api.POST("/api/v1/networks/{id}/routing-policies", {
      ...byId(network.id),
      body: { name: "office", type: "via_gateway", destinationCidr: "192.168.50.0/24", gatewayPath: gatewayNodes.map((node) => node.id) },
    }),
    "create routing policy",
  );
  const record = expectData(
    await api.POST("/api/v1/networks/{id}/dns/records", {
      ...byId(network.id),
      body: { name: "app", type: "A", value: "10.42.0.10", ttl: 300 },
    }),
    "create DNS record",
  );

  const laptopConfig = json(expectData(await api.GET("/api/v1/nodes/{id}/config", byId(laptop.id)), "laptop config"));
  const laptopWgQuick = String(
    expectData(await api.GET("/api/v1/nodes/{id}/config", { ...byId(laptop.id), ...asText }), "laptop wg-quick"),
  );

  const corefileAnswer = await api.GET("/api/v1/networks/{id}/dns/corefile", { ...byId(network.id), ...asText });
  const corefile = String(expectData(corefileAnswer, "Corefile"));
  // Asking again with the ETag: 304 while the records are unchanged, so a DNS server reloads only on change.
  const again = await api.GET("/api/v1/networks/{id}/dns/corefile", {
    ...byId(network.id),
    parseAs: "text",
    headers: ifNoneMatch(etagOf(corefileAnswer) ?? ""),
  });

  const runtimeStatus = expectData(await api.GET("/api/v1/networks/{id}/runtime-status", byId(network.id)), "runtime status");
  return {
    network,
    gatewayNodes,
    laptop,
    policy,
    record,
    laptopConfig,
    laptopWgQuick,
    corefile,
    corefileUnchanged: isNotModified(again),
    runtimeStatus,
  };
}
