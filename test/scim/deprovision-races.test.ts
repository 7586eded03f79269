// Deprovisioning from the directory while the person is still writing (issue 43, "races"): a SCIM PATCH
// active:false, a SCIM DELETE, or leaving the last mapped IdP group, fired while ENROLMENTS of that person's
// enrolments are in flight. Whatever the interleaving, once the SCIM answer is in nothing of theirs commits:
// no device, node or peer entry survives, and the keys they issued stop enrolling.
import { describe, expect, it } from "vitest";
import { call, post } from "../helpers/api";
import { createGroup, createNetwork, createUser, enrolDevice, fakePublicKey, signInAdmin, unique } from "../helpers/factories";
import { countRows } from "../helpers/state";
import { GROUP, scimClient } from "./scim-helpers";

const ROUNDS = 4;
const ENROLMENTS = 20;
const TIMEOUT = 180_000;
type Deprovision = "deactivate" | "delete" | "leave";

async function round(kind: Deprovision) {
  const admin = await signInAdmin();
  const idp = await scimClient("race", admin);
  const user = await createUser(admin);
  const group = await createGroup(admin);
  const network = await createNetwork(admin, group.id);
  // The person's only membership comes from the directory: the "leave" case then deprovisions them.
  const name = unique("race-group");
  expect((await post("/admin/idp-group-mappings", { idpGroup: name, groupId: group.id, role: "admin" }, admin.token)).status).toBe(201);
  const pushed = await idp.post("/Groups", { schemas: [GROUP], displayName: name, members: [{ value: user.userId }] });
  expect(pushed.status, pushed.text).toBe(201);
  const key = await post(`/networks/${network.id}/enrolment-keys`, { name: unique("their-key") }, user.token);
  expect(key.status, key.text).toBe(201);
  const peer = await enrolDevice(admin, { networkId: network.id });

  const enrolments = Array.from({ length: ENROLMENTS }, () =>
    post("/client/devices", { networkId: network.id, name: unique("race"), publicKey: fakePublicKey() }, user.token),
  );
  await Promise.race(enrolments);
  const answer =
    kind === "deactivate"
      ? await idp.patch(`/Users/${user.userId}`, [{ op: "replace", path: "active", value: false }])
      : kind === "delete"
        ? await idp.del(`/Users/${user.userId}`)
        : await idp.patch(`/Groups/${pushed.body.id}`, [{ op: "remove", path: `members[value eq "${user.userId}"]` }]);
  expect(answer.status, answer.text).toBe(kind === "deactivate" ? 200 : 204);
  for (const enrolment of await Promise.all(enrolments)) {
    if (enrolment.status !== 201) expect([401, 403, 404], enrolment.text).toContain(enrolment.status);
  }
  const late = await post("/client/devices", { enrolmentKey: key.body.key, name: unique("late"), publicKey: fakePublicKey() });
  expect([400, 401, 403, 404], late.text).toContain(late.status);
  const devices = await countRows("select count(*) as n from devices where network_id = ? and id <> ?", network.id, peer.deviceId);
  const nodes = await countRows("select count(*) as n from nodes where network_id = ? and id <> ?", network.id, peer.nodeId);
  const config = await call("POST", `/client/devices/${peer.deviceId}/config`, { token: peer.deviceToken });
  expect(config.status).toBe(200);
  return devices + nodes + (config.body.config.peers.length as number);
}

describe(`deprovisioning through SCIM racing ${ENROLMENTS} enrolments, ${ROUNDS} rounds each: nothing survives the answer`, () => {
  for (const kind of ["deactivate", "delete", "leave"] as const) {
    it(
      kind,
      async () => {
        const survivors: number[] = [];
        for (let i = 0; i < ROUNDS; i++) survivors.push(await round(kind));
        expect(
          survivors.reduce((sum, n) => sum + n, 0),
          `survivors per round: ${survivors.join(",")}`,
        ).toBe(0);
      },
      TIMEOUT,
    );
  }
});
