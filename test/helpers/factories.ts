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

export async function addMember(owner: Session, groupId: string, member: Session, role: string) {
  const response = await post(`/groups/${groupId}/members`, { userId: member.userId, role }, owner.token);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}
