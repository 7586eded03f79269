import { expect } from "vitest";
import { TEST_ADMIN } from "../test-secrets";
import { post } from "./api";

let counter = 0;
/** Storage lives per test file, not per test: every factory value is unique so tests never collide. */
export const unique = (label: string) => `${label}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export interface Session {
  token: string;
  refreshToken: string;
  userId: string;
  email: string;
}

export async function signIn(email: string, password: string): Promise<Session> {
  const response = await post("/auth/login", { email, password });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { token: response.body.accessToken, refreshToken: response.body.refreshToken, userId: response.body.user.id, email };
}

export const signInAdmin = () => signIn(TEST_ADMIN.email, TEST_ADMIN.password);

export async function createUser(admin: Session, overrides: { platformRole?: "admin" | "user" } = {}): Promise<Session> {
  const email = `${unique("user")}@example.com`;
  const password = "a long enough password";
  const created = await post("/users", { email, password, name: "Test User", ...overrides }, admin.token);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return signIn(email, password);
}

export async function createGroup(owner: Session, name = unique("group")) {
  const response = await post("/groups", { name }, owner.token);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; name: string };
}

let subnet = 0;
/** A fresh, non-overlapping /24 each call. */
export const nextCidr = () => `10.${100 + Math.floor(subnet / 250)}.${subnet++ % 250}.0/24`;

export async function createNetwork(owner: Session, groupId: string, cidr = nextCidr(), name = unique("net")) {
  const response = await post("/networks", { groupId, name, cidr }, owner.token);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; cidr: string; groupId: string; name: string; routingRevision: number; dnsRevision: number };
}

/**
 * Puts `member` in the group through the platform admin: group owners add directly only people they
 * already share a group with (otherwise they invite), and most tests need just the membership.
 */
export async function addMember(groupId: string, member: Session, role: string) {
  const admin = await signInAdmin();
  const response = await post(`/groups/${groupId}/members`, { userId: member.userId, role }, admin.token);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

/** A syntactically valid WireGuard public key (32 random bytes, base64). */
export const fakePublicKey = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));

export async function createGateway(admin: Session, status: "active" | "draining" | "disabled" = "active") {
  const region = await post("/regions", { name: unique("region") }, admin.token);
  expect(region.status, JSON.stringify(region.body)).toBe(201);
  const gateway = await post("/gateways", { regionId: region.body.id, name: unique("gw"), status }, admin.token);
  expect(gateway.status, JSON.stringify(gateway.body)).toBe(201);
  return gateway.body as { id: string; regionId: string };
}

export interface NodeOptions { name?: string; gatewayId?: string; endpoint?: string; address?: string; listenPort?: number }

export async function createNode(session: Session, networkId: string, options: NodeOptions = {}) {
  const body: Record<string, unknown> = {
    networkId, name: options.name ?? unique("node"), publicKey: fakePublicKey(),
    ...(options.gatewayId ? { roles: ["gateway"], gatewayId: options.gatewayId } : {}),
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.address ? { address: options.address } : {}),
    ...(options.listenPort ? { listenPort: options.listenPort } : {}),
  };
  const response = await post("/nodes", body, session.token);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; address: string; name: string; publicKey: string; revision: number };
}

/** A network with `gateways` gateway nodes (each on its own active inventory gateway). */
export async function gatewayNetwork(admin: Session, gateways: number, cidr = nextCidr()) {
  const group = await createGroup(admin);
  const network = await createNetwork(admin, group.id, cidr);
  const hops = [];
  for (let i = 0; i < gateways; i++) {
    const inventory = await createGateway(admin);
    hops.push(await createNode(admin, network.id, { name: `gw${i + 1}`, gatewayId: inventory.id, endpoint: `198.51.100.${i + 1}:51820` }));
  }
  return { group, network, hops };
}

export interface Enrolled { deviceId: string; nodeId: string; deviceToken: string; address: string; body: any }

export async function enrolDevice(session: Session | null, body: Record<string, unknown>): Promise<Enrolled> {
  const response = await post("/client/devices", { name: unique("dev"), publicKey: fakePublicKey(), ...body }, session?.token);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const { device, node, deviceToken } = response.body;
  return { deviceId: device.id, nodeId: node.id, deviceToken, address: node.address, body: response.body };
}
