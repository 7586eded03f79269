// What an administrator does through the API for the access-policy e2e: a network with an enrolment key,
// machines enrolled with `wgo enrol` and tagged by the admin, the policy document and the mode switch.
import { byId, expectAnswer, type TypedApiClient } from "../support/api-client.ts";
import type { Wgo } from "../wgo/wgo-process.ts";

export interface AccessRule {
  action: "allow" | "deny";
  src: string[];
  dst: string[];
  ports: string[];
  expiresAt?: string;
  description?: string;
}
export interface AccessTest {
  src: string;
  dst: string;
  port: string;
  expect: "allow" | "deny";
}

export interface Enrolled {
  deviceId: string;
  nodeId: string;
  /** The overlay address, without its prefix length. */
  address: string;
  /** The WireGuard public key `wg show` lists it by on its peers. */
  publicKey: string;
}

/** A headless enrolment key good for `uses` machines. */
export async function enrolmentKey(admin: TypedApiClient, networkId: string, uses: number): Promise<string> {
  const key = expectAnswer(
    await admin.POST("/api/v1/networks/{id}/enrolment-keys", { ...byId(networkId), body: { name: "machines", usageLimit: uses } }),
    201,
    "enrolment key",
  );
  return key.key;
}

/** A group and network with a headless enrolment key for `uses` machines. */
export async function seedAccessNetwork(admin: TypedApiClient, name: string, cidr: string, uses: number) {
  const group = expectAnswer(await admin.POST("/api/v1/groups", { body: { name } }), 201, "create group");
  const network = expectAnswer(await admin.POST("/api/v1/networks", { body: { groupId: group.id, name, cidr } }), 201, "create network");
  return { networkId: network.id, enrolmentKey: await enrolmentKey(admin, network.id, uses) };
}

/** `wgo enrol` on the machine, then the admin tags its node (and gives it an endpoint when others must dial it). */
export async function enrolTagged(
  admin: TypedApiClient,
  wgo: Wgo,
  spec: { name: string; enrolmentKey: string; tags: string[]; endpoint?: string },
): Promise<Enrolled> {
  const [device] = (await wgo(["enrol", "--name", spec.name, "--enrolment-key", spec.enrolmentKey])).json;
  expectAnswer(
    await admin.PATCH("/api/v1/nodes/{id}", {
      ...byId(device.nodeId),
      body: { tags: spec.tags, ...(spec.endpoint ? { endpoint: `${spec.endpoint}:51820`, listenPort: 51820 } : {}) },
    }),
    200,
    `tag ${spec.name}`,
  );
  return { deviceId: device.deviceId, nodeId: device.nodeId, address: String(device.address).split("/")[0]!, publicKey: device.publicKey };
}

/** PUT the whole document (its tests must pass, or the API answers 400). */
export async function putAccessPolicy(admin: TypedApiClient, networkId: string, rules: AccessRule[], tests: AccessTest[] = []) {
  return expectAnswer(
    await admin.PUT("/api/v1/networks/{id}/access-policy", { ...byId(networkId), body: { rules, tests } }),
    200,
    "put access policy",
  );
}

export async function enterPolicyMode(admin: TypedApiClient, networkId: string) {
  expectAnswer(await admin.PATCH("/api/v1/networks/{id}", { ...byId(networkId), body: { accessMode: "policy" } }), 200, "policy mode");
}
