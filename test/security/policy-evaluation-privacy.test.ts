// Security round 4 (issue 40, item 2): viewers see nodes, not owners (docs/security.md, "Device nodes"). Preview,
// access-check and access-sources evaluate selectors over people (`user:`, `role:`), so their answers would say
// whose devices are whose: a viewer's `user:<member> → *` preview told whether that member has a device, and its
// flows listed the member's device nodes. They are the group managers' tools: 403 below admin, 404 to strangers.
import { beforeAll, describe, expect, it } from "vitest";
import { call, get, post } from "../helpers/api";
import { expectError } from "../helpers/expect-error";
import { createNode, createUser, enrolDevice, type Enrolled, networkSetup, type Session, unique } from "../helpers/factories";

let networkId: string;
let member: Session;
let viewer: Session;
let groupAdmin: Session;
let admin: Session;
let stranger: Session;
let laptop: Enrolled;

const probe = (email: string) => ({ rules: [{ action: "allow", src: [`user:${email}`], dst: ["*"], ports: ["*"] }], tests: [] });
const evaluations = (token: string) => ({
  preview: () => post(`/networks/${networkId}/access-policy/preview`, probe(member.email), token),
  check: () => get(`/networks/${networkId}/access-check?src=${laptop.nodeId}&dst=${laptop.address}&port=tcp:22`, token),
  sources: () => get(`/networks/${networkId}/access-sources?dst=${laptop.nodeId}`, token),
});

beforeAll(async () => {
  const setup = await networkSetup();
  ({ admin } = setup);
  networkId = setup.network.id;
  [member, viewer, groupAdmin] = [await setup.as("member"), await setup.as("viewer"), await setup.as("admin")];
  stranger = await createUser(admin);
  laptop = await enrolDevice(member, { networkId, name: unique("member-laptop") });
  await createNode(admin, networkId, { name: unique("server") });
  // The policy names the member: its text is readable by every reader, what it matches is not.
  const stored = { rules: [{ action: "allow", src: [`user:${member.email}`], dst: ["tag:db"], ports: ["tcp:5432"] }], tests: [] };
  expect((await call("PUT", `/networks/${networkId}/access-policy`, { body: stored, token: admin.token })).status).toBe(200);
});

describe("policy evaluations do not tell readers below admin who owns which device", () => {
  it("a viewer and a member are refused 403 by preview, access-check and access-sources; a stranger 404", async () => {
    for (const [who, session, status] of [
      ["viewer", viewer, 403],
      ["member", member, 403],
      ["stranger", stranger, 404],
    ] as const) {
      for (const [route, evaluate] of Object.entries(evaluations(session.token))) {
        const answer = await evaluate();
        expectError(answer, status, status === 403 ? "forbidden" : "not_found");
        expect(answer.text, `${route} as ${who}`).not.toContain(laptop.nodeId);
      }
    }
  });

  it("the viewer still reads the document and sees the node, without its owner", async () => {
    const document = await get(`/networks/${networkId}/access-policy`, viewer.token);
    expect(document.status).toBe(200);
    expect(document.body.rules[0].src).toEqual([`user:${member.email}`]);
    const listed = await get(`/nodes?networkId=${networkId}`, viewer.token);
    const entry = listed.body.items.find((node: { id: string }) => node.id === laptop.nodeId);
    expect(entry).toBeDefined();
    expect(JSON.stringify(entry)).not.toContain(member.userId);
  });

  it("group admins and platform admins evaluate as before", async () => {
    for (const session of [groupAdmin, admin]) {
      const { preview, check, sources } = evaluations(session.token);
      const previewed = await preview();
      expect(previewed.status).toBe(200);
      expect(JSON.stringify(previewed.body.flows)).toContain(laptop.nodeId);
      expect((await check()).status).toBe(200);
      expect((await sources()).status).toBe(200);
    }
  });
});
