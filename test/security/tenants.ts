import { expect } from "vitest";
import { post } from "../helpers/api";
import {
  createGroup,
  createNetwork,
  createUser,
  enrolDevice,
  fakePublicKey,
  signInAdmin,
  unique,
  type Session,
} from "../helpers/factories";
import { settle } from "../fuzz/snapshot";

/**
 * Two tenants that share nothing. Alice owns one of every per-tenant resource kind; Bob has his own
 * group, network, enrolment key, invite and device, so id swaps across parents can be tried
 * (Bob's network path with Alice's key id).
 */
export interface Tenants {
  admin: Session;
  alice: Session;
  bob: Session;
  a: Record<string, string>;
  b: Record<string, string>;
  secrets: { aliceDeviceToken: string; bobDeviceToken: string; aliceKey: string };
}

async function ownWorld(owner: Session, cidr: string) {
  const group = await createGroup(owner);
  const network = await createNetwork(owner, group.id, cidr);
  const record = await post(
    `/networks/${network.id}/dns/records`,
    { name: "db", type: "A", value: cidr.replace("0/24", "40") },
    owner.token,
  );
  expect(record.status, record.text).toBe(201);
  const key = await post(`/networks/${network.id}/enrolment-keys`, { name: "k", usageLimit: 5 }, owner.token);
  expect(key.status, key.text).toBe(201);
  const invite = await post(`/groups/${group.id}/invites`, { email: `${unique("inv")}@example.com`, role: "viewer" }, owner.token);
  expect(invite.status, invite.text).toBe(201);
  const device = await enrolDevice(owner, { networkId: network.id, publicKey: fakePublicKey() });
  const channel = await post("/notifications/channels", { type: "email", events: ["node.offline"] }, owner.token);
  expect(channel.status, channel.text).toBe(201);
  const delivery = await post(`/notifications/channels/${channel.body.id}/test`, undefined, owner.token);
  expect(delivery.status, delivery.text).toBe(201);
  return {
    ids: {
      user: owner.userId,
      group: group.id,
      network: network.id,
      record: record.body.id,
      key: key.body.id,
      invite: invite.body.id,
      device: device.deviceId,
      node: device.nodeId,
      channel: channel.body.id,
      delivery: delivery.body.id,
    },
    deviceToken: device.deviceToken,
    key: key.body.key as string,
  };
}

export async function buildTenants(): Promise<Tenants> {
  const admin = await signInAdmin();
  const [alice, bob] = [await createUser(admin), await createUser(admin)];
  const aw = await ownWorld(alice, "10.61.0.0/24");
  const bw = await ownWorld(bob, "10.62.0.0/24");
  await settle();
  return {
    admin,
    alice,
    bob,
    a: aw.ids,
    b: bw.ids,
    secrets: { aliceDeviceToken: aw.deviceToken, bobDeviceToken: bw.deviceToken, aliceKey: aw.key },
  };
}

/** `/dns/records/:record` with Alice's ids, or Bob's where the template says `:b.network`. */
export const fill = (template: string, t: Tenants) =>
  template.replace(/:(b\.)?([a-z]+)/g, (_, bob: string | undefined, kind: string) => (bob ? t.b : t.a)[kind] ?? `:${kind}`);
