import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { expectStatus, networkSetup } from "../helpers/factories";
import { signedInAgent } from "./support/console-agent";

const PASSWORD = "a long enough password";

const keysOf = async (token: string, networkId: string) =>
  expectStatus(await api(token).GET("/api/v1/networks/{id}/enrolment-keys", { params: { path: { id: networkId } } }), 200).items;

/**
 * Ids a console route takes from a form or a query string go into the API's path as they are. "." and ".."
 * are the two values encodeURIComponent leaves alone that URL parsing then removes: without care,
 * `/networks/{id}/enrolment-keys/{keyId}` with id ".." is DELETE /enrolment-keys/{keyId}, another route.
 */
describe("console ids in API paths", { timeout: 30_000 }, () => {
  it("keeps a dot-segment id inside the route it was given to (the API answers 404 for it, not another route)", async () => {
    const { owner, network } = await networkSetup({ owner: "user" });
    const created = await api(owner.token).POST("/api/v1/networks/{id}/enrolment-keys", {
      params: { path: { id: network.id } },
      body: { name: "kept", usageLimit: 1, expiresInSeconds: 3600 },
    });
    const keyId = expectStatus(created, 201).id;
    const agent = await signedInAgent(owner.email, PASSWORD);

    for (const network of ["..", "."]) {
      const revoked = await agent.post(`/enrolment-keys/${keyId}/revoke`, { network });
      expect(revoked.status, network).toBe(404);
      expect(revoked.text, network).toContain("Network not found");
      expect(revoked.text, network).not.toContain("No route");

      const listed = await agent.get(`/enrolment-keys?network=${network}`);
      expect(listed.status, network).toBe(404);
      expect(listed.text, network).toContain("Network not found");
    }
    expect((await keysOf(owner.token, network.id)).map((key) => key.id)).toEqual([keyId]);
  });
});
