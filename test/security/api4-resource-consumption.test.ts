import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/lib/limits";
import { MAX_BODY_BYTES } from "../../src/middleware/body-limit";
import { call, get, post } from "../helpers/api";
import { createGroup, createNetwork, fakePublicKey, signInAdmin, unique, type Session } from "../helpers/factories";
import { fetchDocument, operations } from "../fuzz/openapi-model";
import { expectError } from "../helpers/expect-error";

/**
 * OWASP API4:2023 Unrestricted Resource Consumption: bodies, pages, per-network collections and
 * arrays inside bodies are all bounded, and hitting a bound is a fast 413/422/409, never a timeout.
 * Login/MFA/reset/invite throttling (429) is tested in test/identity/throttle.test.ts and friends.
 */
let admin: Session;
beforeAll(async () => {
  admin = await signInAdmin();
});

const json = (size: number) => `{"email":"a@example.com","password":"${"x".repeat(size - 39)}"}`;
const stream = (text: string) =>
  new ReadableStream({
    start(c) {
      c.enqueue(new TextEncoder().encode(text));
      c.close();
    },
  });

describe("API4 request bodies are capped at 64 KiB before any work", () => {
  it("exactly 64 KiB passes the limit; one byte more is 413, with or without Content-Length", async () => {
    expect(json(MAX_BODY_BYTES)).toHaveLength(MAX_BODY_BYTES);
    const headers = { "Content-Type": "application/json", "CF-Connecting-IP": "198.51.100.41" };
    const atLimit = await call("POST", "/auth/login", { raw: json(MAX_BODY_BYTES), headers });
    expect(atLimit.status).toBe(422);
    const over = await call("POST", "/auth/login", { raw: json(MAX_BODY_BYTES + 1), headers });
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe("payload_too_large");
    const streamed = await call("POST", "/auth/login", { raw: stream(json(MAX_BODY_BYTES + 1)), headers });
    expectError(streamed, 413, "payload_too_large");
  });

  it("a refused body is read to its end, never left mid-stream (declared or chunked, the connection stays usable)", async () => {
    // A body a server stops reading mid-way leaves its connection mid-request (test/e2e/smoke/body-limit.test.ts
    // shows what that did to `wrangler dev`): the refusal must consume what the client sends.
    const CHUNKS = 40; // 40 x 16 KiB = 640 KiB, ten times the limit
    const tracked = () => {
      const seen = { pulls: 0, cancelled: false };
      const body = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            if (seen.pulls === CHUNKS) return controller.close();
            seen.pulls += 1;
            controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
          },
          cancel() {
            seen.cancelled = true;
          },
        },
        { highWaterMark: 0 },
      );
      return { seen, body };
    };
    const headers = { "Content-Type": "application/json", "CF-Connecting-IP": "198.51.100.42" };
    for (const declared of [undefined, String(CHUNKS * 16 * 1024)]) {
      const { seen, body } = tracked();
      const refused = await call("POST", "/auth/login", {
        raw: body,
        headers: declared ? { ...headers, "Content-Length": declared } : headers,
      });
      expect(refused.status, declared ?? "chunked").toBe(413);
      expect(refused.body.error.code).toBe("payload_too_large");
      expect({ declared, ...seen }).toEqual({ declared, pulls: CHUNKS, cancelled: false });
    }
  });

  it("an anonymous 4 MiB body is refused with 413 on a public route", async () => {
    const response = await call("POST", "/client/devices", {
      raw: "x".repeat(4 * 1024 * 1024),
      headers: { "Content-Type": "application/json" },
    });
    expectError(response, 413, "payload_too_large");
  });
});

describe("API4 every list is paged: limit 1-200", () => {
  it("each GET route with a limit refuses 0, -1, 201 and 10^6 (422) and accepts 200", async () => {
    const lists = operations(await fetchDocument()).filter((op) => op.method === "GET" && op.queryParams.some((p) => p.name === "limit"));
    expect(lists.length).toBeGreaterThan(15);
    const group = await createGroup(admin);
    const network = await createNetwork(admin, group.id);
    // Routes under /agents/me answer only to an agent of the right kind.
    const region = await post("/regions", { name: unique("r") }, admin.token);
    const issued = await post("/agents/enrolment-tokens", { kind: "gateway-manager", regionId: region.body.id }, admin.token);
    const agent = (await post("/agents/enrol", { token: issued.body.token, name: unique("m"), version: "1.0.0" })).body
      .credential as string;
    for (const op of lists) {
      const caller = op.path.startsWith("/agents/me") ? agent : admin.token;
      const max = op.queryParams.find((p) => p.name === "limit")!.schema.maximum ?? 200;
      expect(max, `${op.path} allows pages of ${max}`).toBeLessThanOrEqual(200);
      const path = op.path.replace(
        "{id}",
        op.path.startsWith("/groups") ? group.id : op.path.startsWith("/users") ? admin.userId : network.id,
      );
      const query = op.path === "/dev/mail" ? "to=a@example.com&" : "";
      for (const bad of ["0", "-1", String(max + 1), "1000000"]) {
        const response = await get(`${path}?${query}limit=${bad}`, caller);
        expectError(response, 422, "VALIDATION_ERROR");
      }
      expect((await get(`${path}?${query}limit=${max}`, caller)).status, `${path}?limit=${max}`).toBe(200);
    }
  });
});

/** Fills a network's collection up to `count` rows with one recursive INSERT: the cap, without 10,000 API calls. */
async function fill(sql: string, count: number, networkId: string) {
  await env.DB.prepare(`with recursive n(i) as (select 1 union all select i + 1 from n where i < ?1) ${sql}`).bind(count, networkId).run();
}

const NODES =
  "insert into nodes (id, network_id, name, public_key, address, revision, created_at, updated_at) " +
  "select ?2 || '_node' || i, ?2, 'cap' || i, 'key' || i, '10.80.' || (i / 256) || '.' || (i % 256), 0, '2020-01-01', '2020-01-01' from n";
const POLICIES =
  "insert into routing_policies (id, network_id, name, type, destination_cidr, gateway_path, revision, created_at, updated_at) " +
  "select ?2 || '_rp' || i, ?2, 'cap' || i, 'via_gateway', '172.16.' || i || '.0/24', '[]', 0, '2020-01-01', '2020-01-01' from n";
const RECORDS =
  "insert into dns_records (id, network_id, name, type, value, ttl, revision, created_at, updated_at) " +
  "select ?2 || '_dns' || i, ?2, 'cap' || i, 'A', '10.80.0.1', 300, 0, '2020-01-01', '2020-01-01' from n";

describe('API4 per-network caps (src/lib/limits.ts, README "Limits") answer 409 quickly', () => {
  type Create = (networkId: string) => [path: string, body: Record<string, unknown>];
  const CAPS: [kind: string, cap: number, sql: string, create: Create][] = [
    ["nodes", LIMITS.nodesPerNetwork, NODES, (networkId) => ["/nodes", { networkId, name: "one-more", publicKey: fakePublicKey() }]],
    [
      "routing policies",
      LIMITS.policiesPerNetwork,
      POLICIES,
      (networkId) => [
        `/networks/${networkId}/routing-policies`,
        { name: "one-more", type: "via_gateway", destinationCidr: "192.168.1.0/24", gatewayPath: ["node_x"] },
      ],
    ],
    [
      "DNS records",
      LIMITS.dnsRecordsPerNetwork,
      RECORDS,
      (networkId) => [`/networks/${networkId}/dns/records`, { name: "one-more", type: "A", value: "10.80.0.2" }],
    ],
  ];

  it.each(CAPS)(
    "%s: at the cap (%i) a create is 409 and bumps no revision",
    async (_kind, cap, sql, request) => {
      const network = await createNetwork(admin, (await createGroup(admin)).id, "10.80.0.0/18");
      await fill(sql, cap, network.id);
      const [path, body] = request(network.id);
      const before = (await get(`/networks/${network.id}`, admin.token)).body;
      const response = await post(path, body, admin.token);
      expectError(response, 409, "conflict");
      expect(response.body.error.message).toContain(String(cap));
      const after = (await get(`/networks/${network.id}`, admin.token)).body;
      expect([after.routingRevision, after.dnsRevision]).toEqual([before.routingRevision, before.dnsRevision]);
    },
    60_000,
  );

  it("the cap is exact: one below it a node and a record are still created", async () => {
    for (const [, cap, sql, request] of [CAPS[0]!, CAPS[2]!]) {
      const network = await createNetwork(admin, (await createGroup(admin)).id, "10.80.0.0/18");
      await fill(sql, cap - 1, network.id);
      const [path, body] = request(network.id);
      expect((await post(path, body, admin.token)).status, path).toBe(201);
      expectError(
        await post(path, { ...body, name: "two-more", ...(path === "/nodes" ? { publicKey: fakePublicKey() } : {}) }, admin.token),
        409,
        "conflict",
      );
    }
  }, 60_000);
});

describe("API4 arrays inside bodies are bounded by the schema (422)", () => {
  it("heartbeat peers, gateway paths and routing preferences", async () => {
    const peer = { publicKey: fakePublicKey(), lastHandshakeAt: null, rxBytes: 0, txBytes: 0 };
    const cases: [string, string, unknown][] = [
      ["POST", "/client/devices/dev_x/heartbeat", { appliedRevision: 0, peers: Array(1001).fill(peer) }],
      [
        "POST",
        "/networks/net_x/routing-policies",
        {
          name: "p",
          type: "via_gateway",
          destinationCidr: "10.0.0.0/24",
          gatewayPath: Array(LIMITS.gatewayPathEntries + 1).fill("node_x"),
        },
      ],
      ["PUT", "/devices/dev_x/routing-preferences", { mode: "only", policyIds: Array(501).fill("rp_x") }],
    ];
    for (const [method, path, body] of cases) {
      const response = await call(method, path, { token: admin.token, body });
      // 1,001 peers do not even fit in 64 KiB: the body limit binds before the schema's cap.
      expect([413, 422], path).toContain(response.status);
    }
  });
});
