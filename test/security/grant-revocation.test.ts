import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { del, get, patch, post, type ApiResponse } from "../helpers/api";
import { createGroup, createNetwork, createUser, fakePublicKey, signInAdmin, unique, type Session } from "../helpers/factories";
import { expectError, freshAddress, from, mailedToken } from "../identity/identity-helpers";

/**
 * Issue 12 item 2: enrolment keys and invites are grants of the group admin who issued them; they end
 * when that admin's authority ends (removed from the group, disabled, deleted, or demoted below admin),
 * checked by the same write that would use them. A grant of an issuer who keeps authority still works.
 */
const PASSWORD = "a long enough password";
type Loss = "removed" | "disabled" | "deleted" | "demoted";
const LOSSES: Loss[] = ["removed", "disabled", "deleted", "demoted"];

let admin: Session;
beforeAll(async () => {
  admin = await signInAdmin();
});

async function groupAdmin() {
  const issuer = await createUser(admin);
  const group = await createGroup(admin);
  const network = await createNetwork(admin, group.id);
  expect((await post(`/groups/${group.id}/members`, { userId: issuer.userId, role: "admin" }, admin.token)).status).toBe(201);
  return { issuer, group, network };
}

function endAuthority(loss: Loss, groupId: string, userId: string): Promise<ApiResponse> {
  if (loss === "removed") return del(`/groups/${groupId}/members/${userId}`, admin.token);
  if (loss === "disabled") return patch(`/users/${userId}`, { disabled: true }, admin.token);
  if (loss === "deleted") return del(`/users/${userId}`, admin.token);
  return patch(`/groups/${groupId}/members/${userId}`, { role: "member" }, admin.token);
}

async function expectAuthorityEnded(loss: Loss, groupId: string, userId: string) {
  const ended = await endAuthority(loss, groupId, userId);
  expect([200, 204], ended.text).toContain(ended.status);
}

const keyRow = (keyId: string) =>
  env.DB.prepare("select used_count as used from enrolment_keys where id = ?").bind(keyId).first<{ used: number }>();
const networkState = async (networkId: string) => ({
  nodes: (await env.DB.prepare("select count(*) as n from nodes where network_id = ?").bind(networkId).first<{ n: number }>())!.n,
  devices: (await env.DB.prepare("select count(*) as n from devices where network_id = ?").bind(networkId).first<{ n: number }>())!.n,
  revisions: await env.DB.prepare("select routing_revision, dns_revision from networks where id = ?").bind(networkId).first(),
});

describe("an enrolment key ends with its issuer's authority", () => {
  for (const loss of LOSSES) {
    it(`issuer ${loss}: anonymous enrolment with the key is 401 and writes nothing; the owner's key still works`, async () => {
      const { issuer, group, network } = await groupAdmin();
      const issued = await post(`/networks/${network.id}/enrolment-keys`, { name: unique("k"), usageLimit: 5 }, issuer.token);
      expect(issued.status, issued.text).toBe(201);
      const ownersKey = await post(`/networks/${network.id}/enrolment-keys`, { name: unique("k"), usageLimit: 5 }, admin.token);
      await expectAuthorityEnded(loss, group.id, issuer.userId);

      const before = await networkState(network.id);
      const refused = await post("/client/devices", { name: unique("dev"), publicKey: fakePublicKey(), enrolmentKey: issued.body.key });
      expectError(refused, 401, "unauthorized");
      expect(await networkState(network.id)).toEqual(before);
      expect((await keyRow(issued.body.id))!.used).toBe(0);

      const accepted = await post("/client/devices", { name: unique("dev"), publicKey: fakePublicKey(), enrolmentKey: ownersKey.body.key });
      expect(accepted.status, accepted.text).toBe(201);
      expect((await keyRow(ownersKey.body.id))!.used).toBe(1);
    });
  }
});

describe("an invite ends with its inviter's authority", () => {
  for (const loss of LOSSES) {
    it(`inviter ${loss}: a new account cannot accept (400) and nothing is created; an existing one does not join`, async () => {
      const { issuer, group } = await groupAdmin();
      const newcomer = `${unique("invitee")}@example.com`;
      expect((await post(`/groups/${group.id}/invites`, { email: newcomer, role: "member" }, issuer.token)).status).toBe(201);
      const newcomerToken = await mailedToken(newcomer, "inv");
      const existing = await createUser(admin);
      expect((await post(`/groups/${group.id}/invites`, { email: existing.email, role: "member" }, issuer.token)).status).toBe(201);
      const existingToken = await mailedToken(existing.email, "inv");
      await expectAuthorityEnded(loss, group.id, issuer.userId);

      expectError(
        await from(freshAddress()).post("/auth/invites/accept", { token: newcomerToken, password: PASSWORD }),
        400,
        "validation_error",
      );
      const accounts = await env.DB.prepare("select count(*) as n from users where email = ?").bind(newcomer).first<{ n: number }>();
      expect(accounts!.n).toBe(0);
      expectError(
        await from(freshAddress()).post("/auth/invites/accept", { token: existingToken }, existing.token),
        400,
        "validation_error",
      );
      expectError(await get(`/groups/${group.id}`, existing.token), 404, "not_found");
      const members = (await get(`/groups/${group.id}/members`, admin.token)).body.items.map((m: { email: string }) => m.email);
      expect(members).not.toContain(newcomer);
      expect(members).not.toContain(existing.email);
    });
  }

  it("an invite of an admin who keeps the role is accepted (control)", async () => {
    const { issuer, group } = await groupAdmin();
    const newcomer = `${unique("invitee")}@example.com`;
    expect((await post(`/groups/${group.id}/invites`, { email: newcomer, role: "member" }, issuer.token)).status).toBe(201);
    const accepted = await from(freshAddress()).post("/auth/invites/accept", {
      token: await mailedToken(newcomer, "inv"),
      password: PASSWORD,
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.role).toBe("member");
  });
});
