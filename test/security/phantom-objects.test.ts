// Security round 4 (issue 40, item 1): a write naming a network id that names nothing must not bring a network
// object into being. Each Durable Object with storage is its own SQLite database: one per made-up id would be
// unbounded storage and cost for anyone, even a signed-out caller.
import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, post } from "../helpers/api";
import { createUser, fakePublicKey, signInAdmin, unique } from "../helpers/factories";

const objectCount = async () => (await listDurableObjectIds(env.NETWORK_WRITER)).length;
const madeUp = () => `net_${unique("ghost").replace(/-/g, "")}`;

/** Every write that names its network in the path or body, at an id nothing holds. */
const writesTo = (networkId: string, token: string) => [
  () => post("/nodes", { networkId, name: unique("n"), publicKey: fakePublicKey() }, token),
  () => post(`/networks/${networkId}/dns/records`, { name: unique("r"), type: "A", value: "10.9.9.9" }, token),
  () =>
    post(
      `/networks/${networkId}/routing-policies`,
      { name: unique("p"), type: "via_gateway", destinationCidr: "172.30.1.0/24", gatewayPath: ["node_x"] },
      token,
    ),
  () => call("PUT", `/networks/${networkId}/access-policy`, { body: { rules: [], tests: [] }, token }),
];

describe("no network object for an id that names nothing", () => {
  it("refused writes naming made-up networks leave no new object storage, signed in or signed out", async () => {
    const admin = await signInAdmin();
    const stranger = await createUser(admin);
    const signedOut = await createUser(admin);
    expect((await post("/auth/logout", {}, signedOut.token)).status).toBe(204);
    const before = await objectCount();
    let refused = 0;
    for (const caller of [stranger, signedOut, admin]) {
      for (let i = 0; i < 5; i++) {
        for (const write of writesTo(madeUp(), caller.token)) {
          const answer = await write();
          expect([401, 404]).toContain(answer.status);
          if (caller === signedOut) expect(answer.status).toBe(401);
          refused++;
        }
      }
    }
    expect(refused).toBe(60);
    expect(await objectCount()).toBe(before);
  });
});
