// The writer's metered D1 binding must answer exactly what D1 answers: it only adds up what D1 reports.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { meteredD1, newMeter } from "../../src/db/metered-d1";
import { networks, nodes } from "../../src/db/schema";
import { createNode, networkSetup } from "../helpers/factories";

describe("meteredD1", () => {
  it("answers selects and joins as D1 does (same-named columns of two tables kept apart) and counts rows read", async () => {
    const { admin, network } = await networkSetup();
    await createNode(admin, network.id);
    const meter = newMeter();
    const metered = createDb(meteredD1(env.DB, meter));
    const plain = createDb(env.DB);
    const joined = (db: typeof plain) =>
      db
        .select({ nodeId: nodes.id, networkId: networks.id, nodeName: nodes.name, networkName: networks.name })
        .from(nodes)
        .innerJoin(networks, eq(networks.id, nodes.networkId))
        .where(eq(nodes.networkId, network.id))
        .all();
    expect(await joined(metered)).toEqual(await joined(plain));
    const single = (db: typeof plain) => db.select().from(networks).where(eq(networks.id, network.id)).get();
    expect(await single(metered)).toEqual(await single(plain));
    expect(meter.statements).toBe(2);
    expect(meter.rowsRead).toBeGreaterThan(0);
  });
});
