// GET /metrics (docs/metrics.md): a small fleet built through the API, scraped with the metrics token and
// with the admin's access token, parsed by parse-prometheus-text-format, every figure checked against it.
import { describe, expect, it } from "vitest";
import { call, get, post } from "../helpers/api";
import { createNode, enrolDevice, signInAdmin, unique } from "../helpers/factories";
import { createPool, poolNetwork, poolOf, setSeen } from "../gateway-pools/support";
import { webhookChannel } from "../notifications/support/notify-helpers";
import { runCron } from "../notifications/support/receiver";
import { checkPresence } from "../helpers/hot-presence";
import { family, histogramOf, type Scrape, scrape, setLastSeen, secondsAgo, sampleValue } from "./support";

const beat = (deviceId: string, token: string, body: unknown) => call("POST", `/client/devices/${deviceId}/heartbeat`, { token, body });

async function issueMetricsToken(adminToken: string) {
  const issued = await post("/admin/metrics-token", undefined, adminToken);
  expect(issued.status, issued.text).toBe(201);
  return issued.body.token as string;
}

const loginFailures = (scraped: Scrape) => sampleValue(scraped, "wgo_login_failures_total", { method: "password" }) ?? 0;

describe("GET /metrics", () => {
  it("reports the fleet as built: nodes, devices, lagging and unreported nodes, heartbeat and handshake ages, gateways, pools, writer queue", async () => {
    const { admin, network, group, gw1, gw2, gw3 } = await poolNetwork();
    const metricsToken = await issueMetricsToken(admin.token);
    const pool = await createPool(admin.token, network.id, [
      { nodeId: gw1.id, priority: 10 },
      { nodeId: gw2.id, priority: 20 },
    ]);
    const a = await enrolDevice(admin, { networkId: network.id });
    const b = await enrolDevice(admin, { networkId: network.id });
    await createNode(admin, network.id);
    const desired = (await get(`/networks/${network.id}`, admin.token)).body.routingRevision as number;
    const keyOf = async (nodeId: string) => (await get(`/nodes/${nodeId}`, admin.token)).body.publicKey as string;
    // a runs the desired revision and reports two tunnel ends: one handshaked 90 s ago, one never; b lags one revision.
    const peers = [
      { publicKey: await keyOf(b.nodeId), lastHandshakeAt: secondsAgo(90), rxBytes: 10, txBytes: 20 },
      { publicKey: await keyOf(gw1.id), lastHandshakeAt: null, rxBytes: 0, txBytes: 0 },
    ];
    expect((await beat(a.deviceId, a.deviceToken, { appliedRevision: desired, peers })).status).toBe(200);
    expect((await beat(b.deviceId, b.deviceToken, { appliedRevision: desired - 1 })).status).toBe(200);
    // gw1 reported just now (the pool's healthy, active member); gw3 two hours ago; gw2, gw4 and the plain node never.
    await setSeen([gw1.id], 0);
    await setLastSeen(gw3.id, 7200);
    await runCron(); // the presence detectors' verdicts: nodes online, gateways up or down
    await checkPresence(network.id); // the devices' verdicts and figures, from their network's object

    const scraped = await scrape(metricsToken);
    const net = { network_id: network.id };
    expect(sampleValue(scraped, "wgo_network_info", { ...net, network_name: network.name, group_id: group.id })).toBe(1);
    expect(sampleValue(scraped, "wgo_network_nodes", net)).toBe(7);
    expect(sampleValue(scraped, "wgo_network_gateway_nodes", net)).toBe(4);
    expect(sampleValue(scraped, "wgo_network_devices", net)).toBe(2);
    expect(sampleValue(scraped, "wgo_network_routing_revision", net)).toBe(desired);
    expect(sampleValue(scraped, "wgo_network_nodes_behind_revision", net)).toBe(1);
    expect(sampleValue(scraped, "wgo_network_nodes_unreported", net)).toBe(5);
    expect(sampleValue(scraped, "wgo_network_nodes_online", net)).toBe(3);
    // The same verdicts as the runtime status the API answers.
    const runtime = (await get(`/networks/${network.id}/runtime-status`, admin.token)).body;
    expect(runtime.routing.lagging).toEqual([b.nodeId]);
    expect(runtime.routing.unreported).toHaveLength(5);

    const heartbeats = histogramOf(scraped, "wgo_node_heartbeat_age_seconds", net);
    expect(heartbeats.count).toBe(4); // a, b, gw1, gw3: the three never seen are in no bucket
    expect(heartbeats.buckets).toMatchObject({ "30": 3, "3600": 3, "21600": 4, "+Inf": 4 });
    expect(heartbeats.sum).toBeGreaterThanOrEqual(7200);
    expect(heartbeats.sum).toBeLessThan(7200 + 3 * 600);

    expect(sampleValue(scraped, "wgo_network_tunnel_ends", net)).toBe(2);
    const handshakes = histogramOf(scraped, "wgo_tunnel_handshake_age_seconds", net);
    expect(handshakes).toMatchObject({ count: 1, buckets: { "60": 0, "120": 1, "+Inf": 1 } });
    expect(handshakes.sum).toBeGreaterThanOrEqual(90);

    expect(sampleValue(scraped, "wgo_gateway_up", { gateway_id: gw1.gatewayId })).toBe(1);
    expect(sampleValue(scraped, "wgo_gateway_up", { gateway_id: gw3.gatewayId })).toBe(0);
    expect(sampleValue(scraped, "wgo_gateway_up", { gateway_id: gw2.gatewayId })).toBeUndefined(); // never reported: no verdict
    expect(sampleValue(scraped, "wgo_gateways", { status: "active", health: "unknown" })).toBeGreaterThanOrEqual(4);

    const byPool = { network_id: network.id, pool_id: pool.id };
    expect(sampleValue(scraped, "wgo_gateway_pool_members", byPool)).toBe(2);
    expect(sampleValue(scraped, "wgo_gateway_pool_members_healthy", byPool)).toBe(1);
    expect(sampleValue(scraped, "wgo_gateway_pool_active_healthy", byPool)).toBe(1);
    const judged = await poolOf(pool.id, admin.token);
    expect(
      judged.members.filter((member: { healthy: boolean }) => member.healthy).map((member: { nodeId: string }) => member.nodeId),
    ).toEqual([gw1.id]);

    // Written a moment ago, so its writer is sampled; idle now.
    expect(sampleValue(scraped, "wgo_writer_queue_depth", net)).toBe(0);

    // The admin's access token reads the same families.
    const byAdmin = await scrape(admin.token);
    expect(byAdmin.families.map((one) => `${one.name} ${one.type}`)).toEqual(scraped.families.map((one) => `${one.name} ${one.type}`));
  });

  it("counts failed sign-ins (unknown account, wrong password) and notification deliveries by state", async () => {
    const admin = await signInAdmin();
    const metricsToken = await issueMetricsToken(admin.token);
    const before = await scrape(metricsToken);
    expect((await post("/auth/login", { email: `${unique("nobody")}@example.com`, password: "not the password" })).status).toBe(401);
    const user = await post(
      "/users",
      { email: `${unique("user")}@example.com`, password: "a long enough password", name: "U" },
      admin.token,
    );
    expect((await post("/auth/login", { email: user.body.email, password: "the wrong password" })).status).toBe(401);
    const { channel } = await webhookChannel(admin, ["config.drift"]);
    const sent = await post(`/notifications/channels/${channel.id}/test`, undefined, admin.token);
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body.status).toBe("delivered");

    const after = await scrape(metricsToken);
    expect(loginFailures(after) - loginFailures(before)).toBe(2);
    expect(family(after, "wgo_login_failures_total").type).toBe("COUNTER");
    const deliveries = (scraped: Scrape, state: string) => sampleValue(scraped, "wgo_notification_deliveries", { state })!;
    expect(deliveries(after, "delivered") - deliveries(before, "delivered")).toBe(1);
    expect(deliveries(after, "failed")).toBe(deliveries(before, "failed"));
  });

  it("escapes label values: a network name with quotes, a backslash and a newline reads back exactly", async () => {
    const { admin, network } = await poolNetwork();
    const named = `edge "west" \\ ${unique("x")}`;
    expect((await call("PATCH", `/networks/${network.id}`, { token: admin.token, body: { name: named } })).status).toBe(200);
    // The API refuses control characters in names; a row from before that rule could still hold one.
    const withNewline = `${named}\nsecond line`;
    const { env } = await import("cloudflare:workers");
    await env.DB.prepare("UPDATE networks SET name = ? WHERE id = ?").bind(withNewline, network.id).run();

    const scraped = await scrape(admin.token);
    expect(scraped.text).toContain(`network_name="edge \\"west\\" \\\\ `);
    expect(scraped.text).toContain("\\nsecond line");
    expect(sampleValue(scraped, "wgo_network_info", { network_id: network.id })).toBe(1);
    const info = family(scraped, "wgo_network_info").metrics.find((sample) => sample.labels?.network_id === network.id);
    expect(info?.labels?.network_name).toBe(withNewline);
  });
});
