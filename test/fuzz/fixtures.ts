import { expect } from "vitest";
import { get, post } from "../helpers/api";
import { forgetBaseline } from "./oracle";
import { settle } from "./snapshot";
import {
  createGateway,
  createGroup,
  createNetwork,
  createNode,
  createUser,
  enrolDevice,
  fakePublicKey,
  signIn,
  signInAdmin,
  unique,
  type Session,
} from "../helpers/factories";

/**
 * One live resource of every kind, so generated requests reach past "404 not found" into the handlers.
 * The bootstrap admin only sets things up; fuzzing runs as a separate platform admin that can be
 * replaced when a fuzzed request ends its session (logout) or locks it (password-change throttle).
 */
export interface World {
  root: Session;
  admin: Session;
  user: Session;
  deviceToken: string;
  enrolmentKey: string;
  managerToken: string;
  daemonToken: string;
  scimToken: string;
  ids: Record<string, string>;
}

const FUZZ_PASSWORD = "fuzzing admin password";

async function freshAdmin(root: Session): Promise<Session> {
  const email = `${unique("fuzz-admin")}@example.com`;
  const created = await post("/users", { email, password: FUZZ_PASSWORD, name: "Fuzz", platformRole: "admin" }, root.token);
  expect(created.status, created.text).toBe(201);
  return signIn(email, FUZZ_PASSWORD);
}

export async function buildWorld(): Promise<World> {
  const root = await signInAdmin();
  const admin = await freshAdmin(root);
  const user = await createUser(root);
  const group = await createGroup(admin);
  const network = await createNetwork(admin, group.id, "10.77.0.0/16");
  const gateway = await createGateway(admin);
  const gatewayNode = await createNode(admin, network.id, { name: "gw1", gatewayId: gateway.id, endpoint: "198.51.100.7:51820" });
  const node = await createNode(admin, network.id, { name: "plain" });
  const policy = await post(
    `/networks/${network.id}/routing-policies`,
    {
      name: "fuzz-policy",
      type: "via_gateway",
      destinationCidr: "192.168.50.0/24",
      gatewayPath: [gatewayNode.id],
    },
    admin.token,
  );
  expect(policy.status, policy.text).toBe(201);
  const record = await post(`/networks/${network.id}/dns/records`, { name: "db", type: "A", value: "10.77.0.40" }, admin.token);
  expect(record.status, record.text).toBe(201);
  const key = await post(`/networks/${network.id}/enrolment-keys`, { name: "fuzz", usageLimit: 10_000 }, admin.token);
  expect(key.status, key.text).toBe(201);
  const device = await enrolDevice(admin, { networkId: network.id, publicKey: fakePublicKey() });
  const invite = await post(`/groups/${group.id}/invites`, { email: `${unique("invitee")}@example.com`, role: "member" }, admin.token);
  expect(invite.status, invite.text).toBe(201);
  const manager = await enrolAgent(admin, { kind: "gateway-manager", regionId: gateway.regionId });
  const daemon = await enrolAgent(admin, { kind: "gateway-daemon", gatewayId: gateway.id });
  const scim = await post("/admin/scim-tokens", { name: unique("fuzz-scim") }, root.token);
  expect(scim.status, scim.text).toBe(201);
  const channel = await post("/notifications/channels", { type: "email", events: ["node.offline"] }, admin.token);
  expect(channel.status, channel.text).toBe(201);
  await settle();
  return {
    root,
    admin,
    user,
    deviceToken: device.deviceToken,
    enrolmentKey: key.body.key,
    managerToken: manager.credential,
    daemonToken: daemon.credential,
    scimToken: scim.body.token,
    ids: {
      user: user.userId,
      fuzzAdmin: admin.userId,
      group: group.id,
      network: network.id,
      region: gateway.regionId,
      gateway: gateway.id,
      gatewayNode: gatewayNode.id,
      node: node.id,
      policy: policy.body.id,
      record: record.body.id,
      key: key.body.id,
      device: device.deviceId,
      deviceNode: device.nodeId,
      invite: invite.body.id,
      manager: manager.agent.id,
      daemon: daemon.agent.id,
      channel: channel.body.id,
      scimToken: scim.body.id,
    },
  };
}

/** An agent of each kind: the fuzzer also calls as agents, and agent routes need one to get past 401. */
async function enrolAgent(admin: Session, grant: Record<string, string>) {
  const issued = await post("/agents/enrolment-tokens", grant, admin.token);
  expect(issued.status, issued.text).toBe(201);
  const enrolled = await post("/agents/enrol", { token: issued.body.token, name: unique("agent") });
  expect(enrolled.status, enrolled.text).toBe(201);
  return enrolled.body as { agent: { id: string }; credential: string };
}

/**
 * Brings back the credentials generated requests may legitimately end (logout, a revoked or rotated
 * agent credential, a throttled password), so every route keeps being fuzzed as an authenticated caller.
 * An agent whose region or gateway the fuzzer deleted stays gone: its routes then answer 401.
 */
export async function ensureCallers(world: World): Promise<void> {
  if ((await get("/users/me", world.admin.token)).status !== 200) {
    world.admin = await freshAdmin(world.root);
    world.ids.fuzzAdmin = world.admin.userId;
    await settle();
    forgetBaseline();
  }
  // The fuzzer may revoke the SCIM token (POST /admin/scim-tokens/{id}/revoke): a new one keeps SCIM fuzzed past 401.
  if ((await get("/scim/v2/ServiceProviderConfig", world.scimToken)).status !== 200) {
    const scim = await post("/admin/scim-tokens", { name: unique("fuzz-scim") }, world.root.token);
    world.scimToken = scim.body.token;
    world.ids.scimToken = scim.body.id;
    await settle();
    forgetBaseline();
  }
  for (const [role, grant] of [
    ["manager", { kind: "gateway-manager", regionId: world.ids.region! }],
    ["daemon", { kind: "gateway-daemon", gatewayId: world.ids.gateway! }],
  ] as const) {
    const token = role === "manager" ? world.managerToken : world.daemonToken;
    if ((await get("/agents/me", token)).status === 200) continue;
    const agent = await enrolAgent(world.root, grant).catch(() => null);
    await settle();
    forgetBaseline();
    if (!agent) continue;
    if (role === "manager") world.managerToken = agent.credential;
    else world.daemonToken = agent.credential;
    world.ids[role] = agent.agent.id;
  }
}
