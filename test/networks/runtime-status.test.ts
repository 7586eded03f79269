import { describe, expect, it } from "vitest";
import { get } from "../helpers/api";
import { createNode, networkSetup } from "../helpers/factories";

describe("GET /networks/:id/runtime-status", () => {
  it("shows the desired revisions and, until anything reports, applied null and not in sync", async () => {
    const { admin, network } = await networkSetup();
    const node = await createNode(admin, network.id);
    const status = await get(`/networks/${network.id}/runtime-status`, admin.token);
    expect(status.status).toBe(200);
    expect(status.body).toEqual({
      networkId: network.id,
      routing: { desiredRevision: 1, appliedRevision: null, inSync: false, lagging: [], unreported: [node.id], failing: [] },
      dns: { desiredRevision: 1, appliedRevision: null, inSync: false, lagging: [] },
    });
  });
});
