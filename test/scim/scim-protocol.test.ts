// SCIM's protocol around the resources (RFC 7644): discovery, paging, both media types, SCIM error bodies for
// every refusal (invalidFilter, uniqueness, invalidValue, invalidSyntax, 404, 401), and the token's scope.
import { describe, expect, it } from "vitest";
import { call, post } from "../helpers/api";
import { expectError } from "../helpers/expect-error";
import { createGroup, createUser, signInAdmin, unique } from "../helpers/factories";
import { SCIM_FIELDS } from "../security/display-fields";
import { GROUP, USER, expectScimError, oktaUser, scimClient } from "./scim-helpers";

describe("SCIM discovery", () => {
  it("says what it supports (PATCH and eq filters yes; bulk, sort, ETags no) and lists User and Group", async () => {
    const idp = await scimClient();
    const config = await idp.get("/ServiceProviderConfig");
    expect(config.status, config.text).toBe(200);
    expect(config.headers.get("content-type")).toMatch(/^application\/scim\+json/);
    expect(config.body).toMatchObject({
      patch: { supported: true },
      filter: { supported: true, maxResults: 200 },
      bulk: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      changePassword: { supported: false },
      authenticationSchemes: [{ type: "oauthbearertoken" }],
    });
    const types = await idp.get("/ResourceTypes");
    expect(types.body.Resources.map((type: { endpoint: string; schema: string }) => [type.endpoint, type.schema])).toEqual([
      ["/Users", USER],
      ["/Groups", GROUP],
    ]);
    const schemas = await idp.get("/Schemas");
    const user = schemas.body.Resources.find((schema: { id: string }) => schema.id === USER);
    expect(user.attributes.map((attribute: { name: string }) => attribute.name)).toEqual([
      "userName",
      "name",
      "displayName",
      "active",
      "emails",
    ]);
    expect(user.attributes[0]).toMatchObject({ required: true, uniqueness: "server" });
  });
});

describe("SCIM paging and media types", () => {
  it("pages with 1-based startIndex and count; count=0 answers only the total; application/json bodies are read too", async () => {
    const idp = await scimClient();
    for (let i = 0; i < 3; i++) {
      const plain = await call("POST", "/scim/v2/Users", { token: idp.token, body: oktaUser(`${unique("page")}@example.com`) });
      expect(plain.status, plain.text).toBe(201);
    }
    const first = await idp.get("/Users?startIndex=1&count=2");
    expect(first.body).toMatchObject({ startIndex: 1, itemsPerPage: 2 });
    expect(first.body.totalResults).toBeGreaterThanOrEqual(3);
    const second = await idp.get("/Users?startIndex=2&count=2");
    expect(second.body.Resources[0].id).toBe(first.body.Resources[1].id);
    const totalOnly = await idp.get("/Users?count=0");
    expect(totalOnly.body).toMatchObject({ itemsPerPage: 0, Resources: [] });
    expect(totalOnly.body.totalResults).toBe(first.body.totalResults);
    // A media type with a charset, and attribute names and operators in any case (RFC 7644 §3.4.2.2).
    const email = `${unique("charset")}@example.com`;
    const withCharset = await call("POST", "/scim/v2/Users", {
      token: idp.token,
      body: oktaUser(email),
      headers: { "Content-Type": "application/scim+json; charset=utf-8" },
    });
    expect(withCharset.status, withCharset.text).toBe(201);
    const anyCase = await idp.get(`/Users?filter=${encodeURIComponent(`USERNAME Eq "${email.toUpperCase()}"`)}`);
    expect(anyCase.body.Resources.map((user: { id: string }) => user.id)).toEqual([withCharset.body.id]);
    // Out-of-range values are read as RFC 7644 says: startIndex < 1 is 1, count above the limit is the limit.
    const clamped = await idp.get("/Users?startIndex=-5&count=100000");
    expect(clamped.body.startIndex).toBe(1);
    expect(clamped.body.itemsPerPage).toBeLessThanOrEqual(200);
  });
});

describe("SCIM group lists", () => {
  it("a page of groups carries each group's own members (read for the whole page at once), or none with excludedAttributes=members", async () => {
    const idp = await scimClient();
    const [ada, grace, linus] = await Promise.all(
      ["ada", "grace", "linus"].map(async (name) => (await idp.post("/Users", oktaUser(`${unique(name)}@example.com`))).body.id as string),
    );
    const externalId = crypto.randomUUID();
    const first = await idp.post("/Groups", {
      schemas: [GROUP],
      displayName: unique("a"),
      externalId,
      members: [{ value: ada }, { value: grace }],
    });
    const second = await idp.post("/Groups", { schemas: [GROUP], displayName: unique("b"), externalId, members: [{ value: linus }] });
    const listed = await idp.get(`/Groups?filter=${encodeURIComponent(`externalId eq "${externalId}"`)}`);
    expect(listed.body.totalResults).toBe(2);
    const membersOf = (id: string) =>
      listed.body.Resources.find((group: { id: string }) => group.id === id).members.map((member: { value: string }) => member.value);
    expect(membersOf(first.body.id).sort()).toEqual([ada, grace].sort());
    expect(membersOf(second.body.id)).toEqual([linus]);
    const bare = await idp.get(`/Groups?excludedAttributes=members&filter=${encodeURIComponent(`externalId eq "${externalId}"`)}`);
    expect(bare.body.Resources.map((group: { members?: unknown }) => group.members)).toEqual([undefined, undefined]);
  });
});

describe("SCIM error bodies", () => {
  it("refuses filters it cannot answer exactly (invalidFilter), never guessing", async () => {
    const idp = await scimClient();
    for (const filter of [
      'userName co "ada"',
      'userName eq "a" or userName eq "b"',
      'nickName eq "x"',
      'userName eq "unterminated',
      "userName eq 5",
    ]) {
      expectScimError(await idp.get(`/Users?filter=${encodeURIComponent(filter)}`), 400, "invalidFilter");
    }
    expectScimError(await idp.get(`/Groups?filter=${encodeURIComponent('members.value eq "usr_x"')}`), 400, "invalidFilter");
    // Two different values for one attribute match nothing (not an error).
    const none = await idp.get(`/Users?filter=${encodeURIComponent('userName eq "a@example.com" and userName eq "b@example.com"')}`);
    expect(none.body.totalResults).toBe(0);
  });

  it("answers 409 uniqueness for a taken userName or group name, 404 for an unknown id, 400 for bad values and ops", async () => {
    const idp = await scimClient();
    const email = `${unique("dup")}@example.com`;
    expect((await idp.post("/Users", oktaUser(email))).status).toBe(201);
    expectScimError(await idp.post("/Users", oktaUser(email.toUpperCase())), 409, "uniqueness");
    const displayName = unique("dup-group");
    expect((await idp.post("/Groups", { schemas: [GROUP], displayName })).status).toBe(201);
    expectScimError(await idp.post("/Groups", { schemas: [GROUP], displayName }), 409, "uniqueness");

    // A conflict of another kind carries no scimType: the only owner of a group is not deleted (RFC 7644 keeps uniqueness for taken values).
    const owner = (await idp.post("/Users", oktaUser(`${unique("owner")}@example.com`))).body;
    const admin = await signInAdmin();
    const owned = await createGroup(admin);
    expect((await post(`/groups/${owned.id}/members`, { userId: owner.id, role: "owner" }, admin.token)).status).toBe(201);
    expect((await call("DELETE", `/groups/${owned.id}/members/${admin.userId}`, { token: admin.token })).status).toBe(204);
    const soleOwner = await idp.del(`/Users/${owner.id}`);
    expectScimError(soleOwner, 409);
    expect(soleOwner.body.scimType).toBeUndefined();

    expectScimError(await idp.get("/Users/usr_nobody"), 404);
    expectScimError(await idp.patch("/Users/usr_nobody", [{ op: "replace", value: { active: false } }]), 404);
    expectScimError(await idp.del("/Groups/idg_nobody"), 404);
    expectScimError(await idp.get("/Nothing"), 404);

    expectScimError(await idp.post("/Users", { schemas: [USER], userName: "not an address" }), 400, "invalidValue");
    expectScimError(await idp.post("/Users", { schemas: [USER] }), 400, "invalidValue");
    expectScimError(
      await idp.post("/Groups", { schemas: [GROUP], displayName: unique("g"), members: [{ value: "usr_nobody" }] }),
      400,
      "invalidValue",
    );
    const user = (await idp.post("/Users", oktaUser(`${unique("ops")}@example.com`))).body;
    expectScimError(await idp.patch(`/Users/${user.id}`, [{ op: "move", path: "active", value: false }]), 400, "invalidSyntax");
    expectScimError(await idp.patch(`/Users/${user.id}`, [{ op: "replace", path: "active", value: "maybe" }]), 400, "invalidValue");
    expectScimError(await call("PATCH", `/scim/v2/Users/${user.id}`, { token: idp.token, body: { Operations: [] } }), 400, "invalidValue");
    expectScimError(
      await call("POST", "/scim/v2/Users", { token: idp.token, raw: "{not json", headers: { "Content-Type": "application/scim+json" } }),
      400,
    );
    const tooMany = Array.from({ length: 101 }, () => ({ op: "replace", path: "displayName", value: "x" }));
    expectScimError(await idp.patch(`/Users/${user.id}`, tooMany), 400, "tooMany");
    // Nothing of the refused requests changed the person.
    expect((await idp.get(`/Users/${user.id}`)).body).toMatchObject({ active: true, displayName: "Ada Lovelace" });
  });

  it("refuses display text with control, bidirectional or invisible characters (400 invalidValue): every field of POST and PUT, and PATCH values", async () => {
    const idp = await scimClient();
    const user = (await idp.post("/Users", oktaUser(`${unique("names")}@example.com`))).body;
    const group = (await idp.post("/Groups", { schemas: [GROUP], displayName: unique("names") })).body;
    const withField = (body: Record<string, unknown>, field: string, value: string) => {
      const copy = structuredClone(body) as Record<string, any>;
      if (field === "emails[].value") copy.emails = [{ value: `x${value}@example.com`, type: "work" }];
      else if (field.startsWith("name.")) copy.name = { ...copy.name, [field.slice(5)]: value };
      else copy[field] = field === "userName" ? `${value}@example.com` : value;
      return copy;
    };
    for (const hostile of ["a\u202Eb", "team\r\nBcc: x", "ad\u200Bmin", "a\u2028b", "a\uD800b"]) {
      for (const [resource, field] of SCIM_FIELDS) {
        const body = resource === "Users" ? oktaUser(`${unique("h")}@example.com`) : { schemas: [GROUP], displayName: unique("h") };
        const id = resource === "Users" ? user.id : group.id;
        const current = resource === "Users" ? oktaUser(user.userName) : { schemas: [GROUP], displayName: group.displayName };
        expectScimError(await idp.post(`/${resource}`, withField(body, field, hostile)), 400, "invalidValue");
        expectScimError(await idp.put(`/${resource}/${id}`, withField(current, field, hostile)), 400, "invalidValue");
      }
      expectScimError(
        await idp.patch(`/Users/${user.id}`, [{ op: "replace", path: "name.familyName", value: hostile }]),
        400,
        "invalidValue",
      );
      expectScimError(await idp.patch(`/Users/${user.id}`, [{ op: "replace", value: { displayName: hostile } }]), 400, "invalidValue");
      expectScimError(
        await idp.patch(`/Groups/${group.id}`, [{ op: "replace", path: "displayName", value: hostile }]),
        400,
        "invalidValue",
      );
    }
    expect((await idp.get(`/Users/${user.id}`)).body.name.formatted).toBe("Ada Lovelace");
  });
});

describe("SCIM and platform admins", () => {
  it("the directory may deactivate a platform admin, not move their sign-in to another address or delete them (400 mutability)", async () => {
    const root = await signInAdmin();
    const other = await createUser(root, { platformRole: "admin" });
    const idp = await scimClient("admins", root);
    const resource = (await idp.get(`/Users/${other.userId}`)).body;
    expectScimError(
      await idp.put(`/Users/${other.userId}`, { ...resource, userName: `${unique("taken-over")}@evil.example` }),
      400,
      "mutability",
    );
    expectScimError(
      await idp.patch(`/Users/${other.userId}`, [{ op: "replace", path: "userName", value: `${unique("x")}@evil.example` }]),
      400,
      "mutability",
    );
    expectScimError(await idp.del(`/Users/${other.userId}`), 400, "mutability");
    expect((await call("GET", "/users/me", { token: other.token })).status).toBe(200);
    const off = await idp.patch(`/Users/${other.userId}`, [{ op: "replace", path: "active", value: false }]);
    expect(off.status, off.text).toBe(200);
    expectError(await call("GET", "/users/me", { token: other.token }), 401, "unauthorized");
    expect((await call("GET", `/users/${other.userId}`, { token: root.token })).body).toMatchObject({ email: other.email, disabled: true });
  });
});

describe("SCIM token scope", () => {
  it("only a live SCIM token opens the SCIM routes: none, a user's token, an admin's token or a revoked SCIM token is 401", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const idp = await scimClient("scope", admin);
    expect((await idp.get("/Users?count=1")).status).toBe(200);
    expectScimError(await call("GET", "/scim/v2/Users"), 401);
    expectScimError(await call("GET", "/scim/v2/Users", { token: user.token }), 401);
    expectScimError(await call("GET", "/scim/v2/ServiceProviderConfig", { token: admin.token }), 401);
    expectScimError(await call("POST", "/scim/v2/Users", { token: admin.token, body: oktaUser(`${unique("x")}@example.com`) }), 401);
    expectScimError(await call("GET", "/scim/v2/Users", { token: `${idp.token}x` }), 401);
    expect((await post(`/admin/scim-tokens/${idp.id}/revoke`, {}, admin.token)).status).toBe(200);
    expectScimError(await idp.get("/Users?count=1"), 401);
    expectScimError(await idp.post("/Users", oktaUser(`${unique("late")}@example.com`)), 401);
  });

  it("stamps the token's lastUsedAt when it is used", async () => {
    const admin = await signInAdmin();
    const idp = await scimClient("used", admin);
    expect((await idp.get("/ServiceProviderConfig")).status).toBe(200);
    // Stamped after the answer (in the background): polled, not read once.
    const lastUsed = async () => {
      const listed = await call("GET", "/admin/scim-tokens?limit=200", { token: admin.token });
      return listed.body.items.find((token: { id: string }) => token.id === idp.id).lastUsedAt;
    };
    await expect.poll(lastUsed, { timeout: 5_000 }).toEqual(expect.any(String));
  });
});
