import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import type { AuditContext } from "../../src/services/audit/audit-trail";
import { revokeAgent } from "../../src/services/agents/registry";
import { createGateway as addGateway, updateGateway } from "../../src/services/inventory/gateways";
import { createRegion } from "../../src/services/inventory/regions";
import { retryDelivery } from "../../src/services/notifications/channel-test";
import { deleteChannel, updateChannel } from "../../src/services/notifications/channels";
import { saveSettings } from "../../src/services/settings/admin-settings";
import { readSettings } from "../../src/services/settings/settings";
import { getConfig } from "../../src/lib/env";
import { get, patch, post, put } from "../helpers/api";
import { createGateway, signInAdmin, unique, type Session } from "../helpers/factories";

/**
 * The operations areas (inventory, agents, platform settings, notifications) commit each audit row in
 * the batch of its change. Two proofs per area: the row is in D1 the moment the response is (read by
 * the response's X-Request-Id, no polling), and a change whose audit row cannot be written (request_id
 * is NOT NULL; null fails the insert, and with it the batch) is not made.
 */

interface Row {
  actor_type: string;
  actor_id: string | null;
  method: string;
  route: string;
  params: string;
  resource_id: string | null;
  group_id: string | null;
  network_id: string | null;
  status: number;
}

const auditRow = (response: { headers: Headers }) =>
  env.DB.prepare("SELECT * FROM audit_events WHERE request_id = ?")
    .bind(response.headers.get("x-request-id"))
    .all<Row>()
    .then((result) => result.results);

/** The request a write would serve, with a request id the audit row cannot hold. */
const unwritable = (route: string, status = 200): AuditContext => ({
  actor: { type: "user", id: "usr_test" },
  requestId: null as unknown as string,
  method: "POST",
  route,
  params: {},
  status,
});

const db = () => createDb(env.DB);

async function enrolDaemon(admin: Session) {
  const gateway = await createGateway(admin);
  const issued = await post("/agents/enrolment-tokens", { kind: "gateway-daemon", gatewayId: gateway.id }, admin.token);
  expect(issued.status, issued.text).toBe(201);
  const enrolled = await post("/agents/enrol", { token: issued.body.token, name: unique("agent"), version: "1.0.0" });
  expect(enrolled.status, enrolled.text).toBe(201);
  return { issued, enrolled, agent: enrolled.body.agent as { id: string }, credential: enrolled.body.credential as string };
}

describe("inventory: regions and gateways audit in their batch", () => {
  it("the region's and the gateway's audit rows are there when the answers are", async () => {
    const admin = await signInAdmin();
    const region = await post("/regions", { name: unique("region") }, admin.token);
    expect(region.status).toBe(201);
    expect(await auditRow(region)).toEqual([
      expect.objectContaining({
        actor_type: "user",
        actor_id: admin.userId,
        method: "POST",
        route: "/regions",
        params: "{}",
        resource_id: region.body.id,
        group_id: null,
        network_id: null,
        status: 201,
      }),
    ]);
    const gateway = await post("/gateways", { regionId: region.body.id, name: unique("gw") }, admin.token);
    const changed = await patch(`/gateways/${gateway.body.id}`, { status: "draining" }, admin.token);
    expect(changed.status).toBe(200);
    expect(await auditRow(changed)).toEqual([
      expect.objectContaining({
        method: "PATCH",
        route: "/gateways/:id",
        params: JSON.stringify({ id: gateway.body.id }),
        resource_id: gateway.body.id,
        status: 200,
      }),
    ]);
  });

  it("a region, a gateway or a gateway change whose audit row cannot be written is not made", async () => {
    const admin = await signInAdmin();
    const name = unique("doomed");
    await expect(createRegion(db(), { name, description: "" }, unwritable("/regions", 201))).rejects.toThrow(/NOT NULL/);
    const regions = await env.DB.prepare("SELECT count(*) AS n FROM regions WHERE name = ?").bind(name).first<{ n: number }>();
    expect(regions!.n).toBe(0);
    const gateway = await createGateway(admin);
    await expect(
      addGateway(
        db(),
        { regionId: gateway.regionId, name, publicHost: null, status: "active", capacity: null },
        unwritable("/gateways", 201),
      ),
    ).rejects.toThrow(/NOT NULL/);
    expect(
      (await get(`/gateways?regionId=${gateway.regionId}`, admin.token)).body.items.map((g: { name: string }) => g.name),
    ).not.toContain(name);
    await expect(updateGateway(db(), gateway.id, { status: "disabled" }, unwritable("/gateways/:id"))).rejects.toThrow(/NOT NULL/);
    expect((await get(`/gateways/${gateway.id}`, admin.token)).body.status).toBe("active");
  });
});

describe("agents: tokens, enrolment and revocation audit in their batch", () => {
  it("the token's, the enrolment's and the revocation's audit rows are there when the answers are", async () => {
    const admin = await signInAdmin();
    const { issued, enrolled, agent } = await enrolDaemon(admin);
    expect(await auditRow(issued)).toEqual([
      expect.objectContaining({
        actor_type: "user",
        actor_id: admin.userId,
        route: "/agents/enrolment-tokens",
        resource_id: issued.body.id,
        status: 201,
      }),
    ]);
    expect(await auditRow(enrolled)).toEqual([
      expect.objectContaining({
        actor_type: "anonymous",
        actor_id: null,
        route: "/agents/enrol",
        resource_id: agent.id,
        status: 201,
      }),
    ]);
    const revoked = await post(`/agents/${agent.id}/revoke`, {}, admin.token);
    expect(revoked.status).toBe(200);
    expect(await auditRow(revoked)).toEqual([
      expect.objectContaining({
        route: "/agents/:id/revoke",
        params: JSON.stringify({ id: agent.id }),
        resource_id: agent.id,
        group_id: null,
        network_id: null,
        status: 200,
      }),
    ]);
  });

  it("a revocation whose audit row cannot be written is not made: the credential keeps working", async () => {
    const admin = await signInAdmin();
    const { agent, credential } = await enrolDaemon(admin);
    await expect(revokeAgent(db(), agent.id, unwritable("/agents/:id/revoke"))).rejects.toThrow(/NOT NULL/);
    expect((await get(`/agents/${agent.id}`, admin.token)).body.status).toBe("active");
    expect((await get("/agents/me", credential)).status).toBe(200);
  });
});

describe("platform settings audit in their batch", () => {
  it("the settings' audit row is there when the answer is", async () => {
    const admin = await signInAdmin();
    const saved = await put("/admin/settings", { routingPolicyMaxHops: 7 }, admin.token);
    expect(saved.status, saved.text).toBe(200);
    expect(await auditRow(saved)).toEqual([
      expect.objectContaining({
        actor_type: "user",
        actor_id: admin.userId,
        method: "PUT",
        route: "/admin/settings",
        params: "{}",
        resource_id: null,
        status: 200,
      }),
    ]);
  });

  it("settings whose audit row cannot be written are not saved", async () => {
    const admin = await signInAdmin();
    const before = await readSettings(db());
    const wanted = { ...before.settings, routingPolicyMaxHops: (before.settings.routingPolicyMaxHops ?? 3) + 1 };
    await expect(saveSettings(db(), wanted, admin.userId, unwritable("/admin/settings"))).rejects.toThrow(/NOT NULL/);
    expect(await readSettings(db())).toEqual(before);
  });
});

describe("notifications: channels and delivery retries audit in their batch", () => {
  it("the channel's, its test's and a retry's audit rows are there when the answers are", async () => {
    const admin = await signInAdmin();
    const channel = await post("/notifications/channels", { type: "email", events: ["node.offline"] }, admin.token);
    expect(channel.status, channel.text).toBe(201);
    expect(await auditRow(channel)).toEqual([
      expect.objectContaining({
        actor_type: "user",
        actor_id: admin.userId,
        route: "/notifications/channels",
        resource_id: channel.body.id,
        status: 201,
      }),
    ]);
    const tested = await post(`/notifications/channels/${channel.body.id}/test`, undefined, admin.token);
    expect(tested.status, tested.text).toBe(201);
    expect(await auditRow(tested)).toEqual([
      expect.objectContaining({
        route: "/notifications/channels/:id/test",
        params: JSON.stringify({ id: channel.body.id }),
        resource_id: tested.body.id,
        status: 201,
      }),
    ]);
    expect(tested.body.status).not.toBe("pending");
    const retried = await post(`/notifications/deliveries/${tested.body.id}/retry`, undefined, admin.token);
    expect(retried.status, retried.text).toBe(200);
    expect(await auditRow(retried)).toEqual([
      expect.objectContaining({
        route: "/notifications/deliveries/:id/retry",
        resource_id: tested.body.id,
        group_id: null,
        network_id: null,
        status: 200,
      }),
    ]);
  });

  it("a channel change, deletion or retry whose audit row cannot be written is not made", async () => {
    const admin = await signInAdmin();
    const channel = await post("/notifications/channels", { type: "email", events: ["node.offline"] }, admin.token);
    const path = `/notifications/channels/${channel.body.id}`;
    const config = getConfig(env);
    await expect(updateChannel(db(), config, admin.userId, channel.body.id, { enabled: false }, unwritable(path))).rejects.toThrow(
      /NOT NULL/,
    );
    await expect(deleteChannel(db(), admin.userId, channel.body.id, unwritable(path, 204))).rejects.toThrow(/NOT NULL/);
    const after = await get(path, admin.token);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(channel.body);
    const tested = await post(`${path}/test`, undefined, admin.token);
    await expect(
      retryDelivery(db(), config, admin.userId, tested.body.id, unwritable("/notifications/deliveries/:id/retry")),
    ).rejects.toThrow(/NOT NULL/);
    expect((await get(`/notifications/deliveries/${tested.body.id}`, admin.token)).body).toEqual(tested.body);
  });
});
