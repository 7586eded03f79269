// Policy writes are authorised inside the network's writer (objects/network/authority/write-authority.ts): its one read
// of the network row carries the caller's role (404 / 403 as services/authorization.ts answers), and the batch
// re-checks that the caller still manages the network (live-authority.ts), so authority that ended after
// the read (here: a user disabled while still an admin of the group, sent straight to the writer as a request
// authenticated before the disabling would be) changes nothing.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { networkWriter } from "../../src/objects/network/client";
import { patch, post } from "../helpers/api";
import { networkSetup, unique } from "../helpers/factories";

const policyBody = (gatewayId: string, destinationCidr = "172.29.0.0/16") => ({
  name: unique("p"),
  type: "via_gateway" as const,
  destinationCidr,
  gatewayPath: [gatewayId],
});

const revisionAndPolicies = async (networkId: string) =>
  env.DB.prepare(
    "SELECT n.routing_revision AS revision, (SELECT count(*) FROM routing_policies WHERE network_id = n.id) AS policies FROM networks n WHERE n.id = ?",
  )
    .bind(networkId)
    .first();

describe("policy writes authorised in the network's writer", () => {
  it("answers an outsider 404 and a viewer 403 from the writer's own read, and changes nothing", async () => {
    const { network, hops, as } = await networkSetup({ gateways: 1 });
    const viewer = await as("viewer");
    const before = await revisionAndPolicies(network.id);
    const writer = networkWriter(env, network.id);
    const outsider = await writer.createPolicy(network.id, policyBody(hops[0]!.id), { userId: "usr_nobody", platformRole: "user" });
    expect(outsider).toMatchObject({ ok: false, error: { code: "not_found", message: "Network not found" } });
    const viewing = await writer.createPolicy(network.id, policyBody(hops[0]!.id), { userId: viewer.userId, platformRole: "user" });
    expect(viewing).toMatchObject({ ok: false, error: { code: "forbidden" } });
    expect(await revisionAndPolicies(network.id)).toEqual(before);
  });

  it("refuses in the batch a caller whose authority ended after the read: no policy, no revision, no audit row", async () => {
    const { admin, network, hops, as } = await networkSetup({ gateways: 1 });
    const groupAdmin = await as("admin");
    const created = await post(`/networks/${network.id}/routing-policies`, policyBody(hops[0]!.id), groupAdmin.token);
    expect(created.status).toBe(201);
    // Disabled: still an admin of the group (the writer's read of the role passes), no longer anyone (the batch refuses).
    expect((await patch(`/users/${groupAdmin.userId}`, { disabled: true }, admin.token)).status).toBe(200);
    const before = await revisionAndPolicies(network.id);
    const caller = { userId: groupAdmin.userId, platformRole: "user" as const };
    const writer = networkWriter(env, network.id);
    const requestId = unique("req");
    const audit = {
      actor: { type: "user" as const, id: groupAdmin.userId },
      requestId,
      method: "POST",
      route: "/x",
      params: {},
      status: 201,
    };
    for (const result of [
      await writer.createPolicy(network.id, policyBody(hops[0]!.id, "172.28.0.0/16"), caller, audit),
      await writer.replacePolicy(network.id, created.body.id, policyBody(hops[0]!.id), caller, audit),
      await writer.deletePolicy(network.id, created.body.id, caller, audit),
    ]) {
      // The batch's authority guard (acting-authority.ts) refuses it, answering as a fresh check would: 401 for a disabled account.
      expect(result).toMatchObject({ ok: false, error: { code: "unauthorized", message: expect.stringMatching(/access .*ended/) } });
    }
    expect(await revisionAndPolicies(network.id)).toEqual(before);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM audit_events WHERE request_id = ?").bind(requestId).first<{ n: number }>();
    expect(rows!.n).toBe(0);
  });
});
