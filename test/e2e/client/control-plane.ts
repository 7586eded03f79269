// What an administrator does through the API before anyone runs wgo: a user, a group the user is a
// member of, a network in it, and a headless enrolment key for a second machine.
import { randomBytes } from "node:crypto";
import { api, login, type ApiClient, type ApiResponse } from "../support/api-client.ts";
import type { AdminCredentials } from "../support/worker-server.ts";

export interface Seeded {
  admin: ApiClient;
  user: { id: string; email: string; password: string };
  networkId: string;
  enrolmentKey: string;
}

/** The body of a response that must have `status`; anything else fails with the answer in the message. */
export function expectAnswer<T = any>(response: ApiResponse<T>, status: number, what: string): T {
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status}: ${response.text}`);
  return response.body;
}

export async function seedNetwork(baseUrl: string, adminCredentials: AdminCredentials, cidr: string): Promise<Seeded> {
  const admin = api(baseUrl, await login(baseUrl, adminCredentials));
  const email = `member-${randomBytes(3).toString("hex")}@e2e.test`;
  const password = randomBytes(18).toString("base64url");
  const user = expectAnswer(await admin.post("/users", { email, password, name: "CLI member" }), 201, "create user");
  const group = expectAnswer(await admin.post("/groups", { name: "cli-e2e" }), 201, "create group");
  expectAnswer(await admin.post(`/groups/${group.id}/members`, { userId: user.id, role: "member" }), 201, "add member");
  const network = expectAnswer(await admin.post("/networks", { groupId: group.id, name: "cli-e2e", cidr }), 201, "create network");
  const key = expectAnswer(await admin.post(`/networks/${network.id}/enrolment-keys`, { name: "headless" }), 201, "create enrolment key");
  return { admin, user: { id: user.id, email, password }, networkId: network.id, enrolmentKey: key.key };
}

/** Turns a device's node into a gateway hop: an inventory region and gateway, then the node's role. */
export async function makeGateway(admin: ApiClient, nodeId: string): Promise<void> {
  const region = expectAnswer(await admin.post("/regions", { name: `cli-${randomBytes(2).toString("hex")}` }), 201, "create region");
  const gateway = expectAnswer(await admin.post("/gateways", { regionId: region.id, name: "cli-gw" }), 201, "create gateway");
  expectAnswer(await admin.patch(`/nodes/${nodeId}`, { roles: ["gateway"], gatewayId: gateway.id }), 200, "make gateway");
}
