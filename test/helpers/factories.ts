import { expect } from "vitest";
import type { Schema } from "../../client/index.ts";
import { TEST_ADMIN } from "../test-secrets";
import { api, post } from "./api";

let counter = 0;
/** Files share one workerd and its storage (test/suites.ts): every factory value is unique so tests never collide. */
export const unique = (label: string) => `${label}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export interface Session {
  token: string;
  refreshToken: string;
  userId: string;
  email: string;
}

export type GroupRole = Schema<"AddGroupMember">["role"];
export type Group = Schema<"Group">;
export type Network = Schema<"Network">;
export type Node = Schema<"Node">;
export type Gateway = Schema<"Gateway">;

/** The typed answer's body when it has the expected status; fails the test (showing the answer) otherwise. */
export function expectStatus<T>(result: { data?: T; error?: unknown; response: Response }, status: number): T {
  expect(result.response.status, JSON.stringify(result.error ?? result.data)).toBe(status);
  return result.data as T;
}

export async function signIn(email: string, password: string): Promise<Session> {
  const signedIn = expectStatus(await api().POST("/api/v1/auth/login", { body: { email, password } }), 200);
  if (!("accessToken" in signedIn)) throw new Error(`${email} has MFA on: sign in with identity-helpers`);
  return { token: signedIn.accessToken, refreshToken: signedIn.refreshToken, userId: signedIn.user.id, email };
}

export const signInAdmin = () => signIn(TEST_ADMIN.email, TEST_ADMIN.password);

export async function createUser(admin: Session, overrides: { platformRole?: "admin" | "user" } = {}): Promise<Session> {
  const email = `${unique("user")}@example.com`;
  const password = "a long enough password";
  expectStatus(await api(admin.token).POST("/api/v1/users", { body: { email, password, name: "Test User", ...overrides } }), 201);
  return signIn(email, password);
}

export async function createGroup(owner: Session, name = unique("group")): Promise<Group> {
  return expectStatus(await api(owner.token).POST("/api/v1/groups", { body: { name } }), 201);
}

let subnet = 0;
/** A fresh, non-overlapping /24 each call. */
export const nextCidr = () => `10.${100 + Math.floor(subnet / 250)}.${subnet++ % 250}.0/24`;

export async function createNetwork(owner: Session, groupId: string, cidr = nextCidr(), name = unique("net")): Promise<Network> {
  return expectStatus(await api(owner.token).POST("/api/v1/networks", { body: { groupId, name, cidr } }), 201);
}

/**
 * Puts `member` in the group through the platform admin: group owners add directly only people they
 * already share a group with (otherwise they invite), and most tests need just the membership.
 */
export async function addMember(groupId: string, member: Session, role: GroupRole | (string & {})) {
  const admin = await signInAdmin();
  expectStatus(
    await api(admin.token).POST("/api/v1/groups/{id}/members", {
      params: { path: { id: groupId } },
      body: { userId: member.userId, role: role as GroupRole },
    }),
    201,
  );
}

/** A syntactically valid WireGuard public key (32 random bytes, base64). */
export const fakePublicKey = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));

export async function createGateway(admin: Session, status: "active" | "draining" | "disabled" = "active"): Promise<Gateway> {
  const client = api(admin.token);
  const region = expectStatus(await client.POST("/api/v1/regions", { body: { name: unique("region") } }), 201);
  return expectStatus(await client.POST("/api/v1/gateways", { body: { regionId: region.id, name: unique("gw"), status } }), 201);
}

/**
 * Lets `groupId` put gateway nodes on a gateway (or every gateway of a region): a platform admin's
 * assignment (POST /groups/{id}/gateway-assignments). Tests whose gateway nodes a group owner creates need it.
 */
export async function assignGateway(admin: Session, groupId: string, target: { gatewayId: string } | { regionId: string }) {
  const response = await post(`/groups/${groupId}/gateway-assignments`, target, admin.token);
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; groupId: string; gatewayId: string | null; regionId: string | null };
}

export interface NodeOptions {
  name?: string;
  gatewayId?: string;
  endpoint?: string;
  address?: string;
  listenPort?: number;
}

export async function createNode(session: Session, networkId: string, options: NodeOptions = {}): Promise<Node> {
  const body: Schema<"CreateNode"> = {
    networkId,
    name: options.name ?? unique("node"),
    publicKey: fakePublicKey(),
    ...(options.gatewayId ? { roles: ["gateway"], gatewayId: options.gatewayId } : {}),
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.address ? { address: options.address } : {}),
    ...(options.listenPort ? { listenPort: options.listenPort } : {}),
  };
  return expectStatus(await api(session.token).POST("/api/v1/nodes", { body }), 201);
}

/** A network with `gateways` gateway nodes (each on its own active inventory gateway). */
export async function gatewayNetwork(admin: Session, gateways: number, cidr = nextCidr()) {
  const group = await createGroup(admin);
  const network = await createNetwork(admin, group.id, cidr);
  const hops: Node[] = [];
  for (let i = 0; i < gateways; i++) {
    const inventory = await createGateway(admin);
    hops.push(await createNode(admin, network.id, { name: `gw${i + 1}`, gatewayId: inventory.id, endpoint: `198.51.100.${i + 1}:51820` }));
  }
  return { group, network, hops };
}

export interface Enrolled {
  deviceId: string;
  nodeId: string;
  deviceToken: string;
  address: string;
  body: Schema<"DeviceEnrolment">;
}

export async function enrolDevice(
  session: Session | null,
  body: Partial<Schema<"EnrolDevice">> & Record<string, unknown>,
): Promise<Enrolled> {
  const enrolment = { name: unique("dev"), publicKey: fakePublicKey(), ...body } as Schema<"EnrolDevice">;
  const enrolled = expectStatus(await api(session?.token).POST("/api/v1/client/devices", { body: enrolment }), 201);
  const { device, node, deviceToken } = enrolled;
  return { deviceId: device.id, nodeId: node.id, deviceToken, address: node.address, body: enrolled };
}

export interface NetworkSetupOptions {
  /** The network's range; a fresh /24 when omitted. */
  cidr?: string;
  /** How many gateway nodes to create (each on its own active inventory gateway). */
  gateways?: number;
  /** Who owns the group: the platform admin (default) or a new ordinary user. */
  owner?: "admin" | "user";
}

/**
 * The chain most tests start from: the platform admin, a group (owned by the admin or a new user), a
 * network in it and optionally gateway nodes. `as(role)` adds a new user to the group with that role.
 *
 *   const { admin, owner, network, as } = await networkSetup({ owner: "user" });
 *   const viewer = await as("viewer");
 */
export async function networkSetup(options: NetworkSetupOptions = {}) {
  const admin = await signInAdmin();
  const owner = options.owner === "user" ? await createUser(admin) : admin;
  const group = await createGroup(owner);
  const network = await createNetwork(owner, group.id, options.cidr ?? nextCidr());
  const hops: Node[] = [];
  for (let i = 0; i < (options.gateways ?? 0); i++) {
    const inventory = await createGateway(admin);
    hops.push(await createNode(admin, network.id, { name: `gw${i + 1}`, gatewayId: inventory.id, endpoint: `198.51.100.${i + 1}:51820` }));
  }
  const as = async (role: GroupRole) => {
    const user = await createUser(admin);
    await addMember(group.id, user, role);
    return user;
  };
  return { admin, owner, group, network, hops, as };
}
