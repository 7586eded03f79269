// What an administrator does through the API before anyone runs wgo: a user, a group the user is a
// member of, a network in it, and a headless enrolment key for a second machine.
import { randomBytes } from "node:crypto";
import { byId, expectAnswer, login, typedApi, type TypedApiClient } from "../support/api-client.ts";
import type { AdminCredentials } from "../support/worker-server.ts";

export interface Seeded {
  admin: TypedApiClient;
  user: { id: string; email: string; password: string };
  networkId: string;
  enrolmentKey: string;
}

export { expectAnswer };

export async function seedNetwork(baseUrl: string, adminCredentials: AdminCredentials, cidr: string): Promise<Seeded> {
  const admin = typedApi(baseUrl, await login(baseUrl, adminCredentials));
  const email = `member-${randomBytes(3).toString("hex")}@e2e.test`;
  const password = randomBytes(18).toString("base64url");
  const user = expectAnswer(await admin.POST("/api/v1/users", { body: { email, password, name: "CLI member" } }), 201, "create user");
  const group = expectAnswer(await admin.POST("/api/v1/groups", { body: { name: "cli-e2e" } }), 201, "create group");
  expectAnswer(
    await admin.POST("/api/v1/groups/{id}/members", { ...byId(group.id), body: { userId: user.id, role: "member" } }),
    201,
    "add member",
  );
  const network = expectAnswer(
    await admin.POST("/api/v1/networks", { body: { groupId: group.id, name: "cli-e2e", cidr } }),
    201,
    "create network",
  );
  const key = expectAnswer(
    await admin.POST("/api/v1/networks/{id}/enrolment-keys", { ...byId(network.id), body: { name: "headless" } }),
    201,
    "create enrolment key",
  );
  return { admin, user: { id: user.id, email, password }, networkId: network.id, enrolmentKey: key.key };
}

/** Turns a device's node into a gateway hop: an inventory region and gateway, then the node's role. */
export async function makeGateway(admin: TypedApiClient, nodeId: string): Promise<void> {
  const region = expectAnswer(
    await admin.POST("/api/v1/regions", { body: { name: `cli-${randomBytes(2).toString("hex")}` } }),
    201,
    "create region",
  );
  const gateway = expectAnswer(
    await admin.POST("/api/v1/gateways", { body: { regionId: region.id, name: "cli-gw" } }),
    201,
    "create gateway",
  );
  expectAnswer(
    await admin.PATCH("/api/v1/nodes/{id}", { ...byId(nodeId), body: { roles: ["gateway"], gatewayId: gateway.id } }),
    200,
    "make gateway",
  );
}
