// Security round 4 (issue 40): refused writes are limited per user across networks. The writes a network's object
// authorises itself reach it on the caller's word; a caller refused past THROTTLE_REFUSED_WRITES (60 a minute)
// has every such write answered 429 with Retry-After for the rest of the window, whichever network it names.
import { describe, expect, it } from "vitest";
import { call, post } from "../helpers/api";
import { createGroup, createNetwork, createUser, fakePublicKey, networkSetup, unique } from "../helpers/factories";

const LIMIT = 60;

describe("a per-user limit on refused writes across networks", () => {
  it("past the limit a prober's writes answer 429 with Retry-After, even to its own network; others are untouched", async () => {
    const victims = await Promise.all([networkSetup(), networkSetup()]);
    const { admin } = victims[0];
    const prober = await createUser(admin);
    const own = await createNetwork(prober, (await createGroup(prober)).id);
    const targets = [...victims.map((v) => v.network.id), "net_madeup1", "net_madeup2"];
    // The limit's worth of refusals, and one past it: the first refusal the counter turns down holds the prober back.
    for (let i = 0; i <= LIMIT; i++) {
      const networkId = targets[i % targets.length]!;
      const answer =
        i % 2 === 0
          ? await post(`/networks/${networkId}/dns/records`, { name: unique("r"), type: "A", value: "10.1.1.1" }, prober.token)
          : await call("PUT", `/networks/${networkId}/access-policy`, { body: { rules: [], tests: [] }, token: prober.token });
      expect(answer.status, `refusal ${i}`).toBe(404);
    }
    // From then on every write of the prober's is held back, a permitted one included.
    const over = await post("/nodes", { networkId: targets[0]!, name: unique("n"), publicKey: fakePublicKey() }, prober.token);
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe("rate_limited");
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const ownWrite = await post(`/networks/${own.id}/dns/records`, { name: unique("r"), type: "A", value: "10.1.1.2" }, prober.token);
    expect(ownWrite.status).toBe(429);
    // Reads are not writes: the prober still reads its own network.
    expect((await call("GET", `/networks/${own.id}/dns/records`, { token: prober.token })).status).toBe(200);
    // Another user, and the victims' own admins, write as before.
    const bystander = await createUser(admin);
    const theirs = await createNetwork(bystander, (await createGroup(bystander)).id);
    expect(
      (await post(`/networks/${theirs.id}/dns/records`, { name: unique("r"), type: "A", value: "10.1.1.3" }, bystander.token)).status,
    ).toBe(201);
    expect(
      (await post(`/networks/${victims[1].network.id}/dns/records`, { name: unique("r"), type: "A", value: "10.1.1.4" }, admin.token))
        .status,
    ).toBe(201);
  });
});
