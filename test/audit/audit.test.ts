import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { call, del, get, patch, post } from "../helpers/api";
import { addMember, createGroup, createNetwork, createNode, createUser, enrolDevice, signIn, signInAdmin } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { auditPage, awaitAudit } from "./audit-helpers";
import { expectError } from "../helpers/expect-error";

describe("the audit trail", () => {
  it("records a mutation: actor, route pattern, path ids (before), response id (after), group and network, request id", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const group = await createGroup(owner);
    const network = await createNetwork(owner, group.id);
    const created = await post("/nodes", { networkId: network.id, name: "audited", publicKey: btoa("k".repeat(32)) }, owner.token);
    expect(created.status).toBe(201);
    const renamed = await patch(`/nodes/${created.body.id}`, { name: "audited-2" }, owner.token);
    expect(renamed.status).toBe(200);

    const create = await awaitAudit(owner, `&networkId=${network.id}`, (event) => event.route === "/nodes" && event.method === "POST");
    expect(create).toMatchObject({
      actor: { type: "user", id: owner.userId },
      params: {},
      resourceId: created.body.id,
      groupId: group.id,
      networkId: network.id,
      status: 201,
      requestId: created.headers.get("x-request-id"),
    });
    const update = await awaitAudit(owner, `&networkId=${network.id}`, (event) => event.route === "/nodes/:id");
    expect(update).toMatchObject({ method: "PATCH", params: { id: created.body.id }, resourceId: created.body.id, status: 200 });
    expect(Date.parse(update.at)).toBeGreaterThanOrEqual(Date.parse(create.at));
  });

  it("a deletion keeps its group and network (resolved before the handler ran)", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const group = await createGroup(owner);
    const network = await createNetwork(owner, group.id);
    const node = await createNode(owner, network.id);
    expect((await del(`/nodes/${node.id}`, owner.token)).status).toBe(204);
    const removed = await awaitAudit(owner, `&groupId=${group.id}`, (event) => event.method === "DELETE");
    expect(removed).toMatchObject({ route: "/nodes/:id", resourceId: node.id, networkId: network.id, groupId: group.id, status: 204 });
  });

  it("reads and failed writes are not recorded", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const group = await createGroup(owner);
    await get(`/groups/${group.id}`, owner.token);
    expectError(await post("/networks", { groupId: group.id, name: "x", cidr: "10.0.0.1/24" }, owner.token), 422, "VALIDATION_ERROR");
    expectError(await post("/networks", { groupId: "grp_missing", name: "x", cidr: "10.9.9.0/24" }, owner.token), 404, "not_found");
    await awaitAudit(owner, `&groupId=${group.id}`, (event) => event.route === "/groups");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await auditPage(owner, `&groupId=${group.id}`)).map((event) => `${event.method} ${event.route}`)).toEqual(["POST /groups"]);
  });

  it("sign-in is recorded as the signed-in user, and no credential is ever stored", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const again = await signIn(user.email, "a long enough password");
    const login = await awaitAudit(admin, `&actorId=${user.userId}`, (event) => event.route === "/auth/login");
    expect(login).toMatchObject({ method: "POST", actor: { type: "user", id: user.userId }, groupId: null, networkId: null, status: 200 });
    const dump = JSON.stringify(await env.DB.prepare("SELECT * FROM audit_events").all());
    for (const secret of [again.token, again.refreshToken, "a long enough password", TEST_ADMIN.password])
      expect(dump).not.toContain(secret);
  });

  it("enrolment is recorded (user or, with a key, anonymous); device config and heartbeats are not (telemetry)", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const group = await createGroup(owner);
    const network = await createNetwork(owner, group.id);
    const device = await enrolDevice(owner, { networkId: network.id });
    const key = await post(`/networks/${network.id}/enrolment-keys`, { name: "ci" }, owner.token);
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const headless = await enrolDevice(null, { enrolmentKey: key.body.key });
    const beat = await call("POST", `/client/devices/${device.deviceId}/heartbeat`, {
      token: device.deviceToken,
      body: { appliedRevision: 0 },
    });
    expect(beat.status).toBe(200);
    expect((await call("POST", `/client/devices/${device.deviceId}/config`, { token: device.deviceToken, body: {} })).status).toBe(200);

    const byUser = await awaitAudit(owner, `&networkId=${network.id}`, (event) => event.resourceId === device.deviceId);
    expect(byUser).toMatchObject({ route: "/client/devices", actor: { type: "user", id: owner.userId }, groupId: group.id, status: 201 });
    const byKey = await awaitAudit(owner, `&networkId=${network.id}`, (event) => event.resourceId === headless.deviceId);
    expect(byKey).toMatchObject({ route: "/client/devices", actor: { type: "anonymous", id: null }, networkId: network.id });
    expect(JSON.stringify(await env.DB.prepare("SELECT * FROM audit_events").all())).not.toContain(key.body.key);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const routes = (await auditPage(owner, `&networkId=${network.id}`)).map((event) => event.route);
    expect(routes).not.toContain("/client/devices/:id/heartbeat");
    expect(routes).not.toContain("/client/devices/:id/config");
  });
});

describe("GET /audit access", () => {
  async function groupWithRoles() {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const groupAdmin = await createUser(admin);
    const member = await createUser(admin);
    const outsider = await createUser(admin);
    const group = await createGroup(owner);
    await addMember(group.id, groupAdmin, "admin");
    await addMember(group.id, member, "member");
    const network = await createNetwork(owner, group.id);
    await awaitAudit(owner, `&groupId=${group.id}`, (event) => event.route === "/networks");
    return { admin, owner, groupAdmin, member, outsider, group, network };
  }

  it("owners and group admins read their group's events; members 403; outsiders 404", async () => {
    const { owner, groupAdmin, member, outsider, group, network } = await groupWithRoles();
    for (const reader of [owner, groupAdmin]) {
      expect((await auditPage(reader, `&groupId=${group.id}`)).some((event) => event.resourceId === network.id)).toBe(true);
      expect((await auditPage(reader, `&networkId=${network.id}`)).length).toBeGreaterThan(0);
    }
    for (const query of [`groupId=${group.id}`, `networkId=${network.id}`]) {
      const forbidden = await get(`/audit?${query}`, member.token);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error.code).toBe("forbidden");
      const hidden = await get(`/audit?${query}`, outsider.token);
      expect(hidden.status).toBe(404);
      expect(hidden.body.error.code).toBe("not_found");
    }
    expectError(await get("/audit"), 401, "unauthorized");
  });

  it("without filters: the events of groups one owns or administers, nothing else", async () => {
    const { owner, member, outsider, group } = await groupWithRoles();
    const mine = await auditPage(owner);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((event) => event.groupId === group.id)).toBe(true);
    expect(await auditPage(member)).toEqual([]);
    expect(await auditPage(outsider)).toEqual([]);
  });

  it("platform admins see everything, also events outside any group, and may filter by any id", async () => {
    const { admin, owner, group } = await groupWithRoles();
    const everything = await auditPage(admin, "&order=desc");
    expect(everything.some((event) => event.route === "/users" && event.groupId === null)).toBe(true);
    expect(everything.some((event) => event.groupId === group.id)).toBe(true);
    expect(await auditPage(admin, "&groupId=grp_long_gone")).toEqual([]);
    expect((await auditPage(admin, `&actorId=${owner.userId}`)).every((event) => event.actor.id === owner.userId)).toBe(true);
  });

  it("pages in a stable order, oldest first by default or newest first", async () => {
    const owner = await createUser(await signInAdmin());
    const group = await createGroup(owner);
    const network = await createNetwork(owner, group.id);
    for (let i = 0; i < 3; i++) await createNode(owner, network.id);
    // group, network, 3 nodes
    const all = await vi.waitFor(
      async () => {
        const rows = await auditPage(owner, `&groupId=${group.id}`);
        expect(rows).toHaveLength(5);
        return rows;
      },
      { timeout: 10_000, interval: 100 },
    );
    const seen: string[] = [];
    let cursor = "";
    do {
      const page = await get(`/audit?groupId=${group.id}&limit=2${cursor ? `&cursor=${cursor}` : ""}`, owner.token);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((event: { id: string }) => event.id));
      cursor = page.body.nextCursor ?? "";
    } while (cursor);
    expect(seen).toEqual(all.map((event) => event.id));
    const newest = await auditPage(owner, `&groupId=${group.id}&order=desc`);
    expect(newest.map((event) => event.id)).toEqual([...seen].reverse());
    expectError(await get("/audit?cursor=%%%", owner.token), 422, "VALIDATION_ERROR");
    expectError(await get("/audit?limit=0", owner.token), 422, "VALIDATION_ERROR");
  });
});
