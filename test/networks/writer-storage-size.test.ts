// The writer's stats carry the size of its Durable Object's own SQLite storage: the fleet bench
// (bench/fleet.bench.ts) sums it over networks, to show what each network's object holds as hot state moves in.
import { describe, expect, it } from "vitest";
import { get } from "../helpers/api";
import { createNode, networkSetup } from "../helpers/factories";

describe("GET /networks/{id}/writer", () => {
  it("reports the bytes of the writer's own storage", async () => {
    const { admin, network } = await networkSetup();
    await createNode(admin, network.id);
    const stats = await get(`/networks/${network.id}/writer`, admin.token);
    expect(stats.status).toBe(200);
    expect(Number.isInteger(stats.body.storageBytes)).toBe(true);
    // An SQLite database is whole pages: at least one once the object has run.
    expect(stats.body.storageBytes).toBeGreaterThanOrEqual(4096);
  });
});
