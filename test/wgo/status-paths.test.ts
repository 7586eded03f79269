// `wgo status` prints the server's view of the path to each peer (GET /nodes/{id}/paths, with the device's
// own credential): direct, relay via which node, or unknown, with endpoint and handshake age, and the
// candidates the server learned for this node on one line. A server without the route (before issue 28)
// or one that cannot be reached leaves status working: the paths are said to be unavailable.
import { afterEach, describe, expect, it } from "vitest";
import { runWgo, tempHome } from "./support/cli.ts";
import { DEVICE_TOKEN, dumpText, enrolLaptop, startDeviceApi } from "./support/device-api.ts";
import type { FakeRoute } from "./support/fake-api.ts";
import { fakeHost } from "./support/fake-system.ts";

let stop: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of stop.reverse()) await step();
  stop = [];
});

const NOW = Date.parse("2026-11-26T18:00:00Z");
const PATHS = {
  nodeId: "node_1",
  candidates: [
    { endpoint: "192.168.1.10:45123", source: "local", seenAt: "2026-11-26T17:59:50Z" },
    { endpoint: "203.0.113.7:45123", source: "observed", seenAt: "2026-11-26T17:57:00Z" },
  ],
  items: [
    {
      peerNodeId: "node_2",
      peerName: "gw",
      path: "direct",
      via: null,
      endpoint: "192.0.2.1:51820",
      lastHandshakeAt: "2026-11-26T17:59:48Z",
    },
    {
      peerNodeId: "node_3",
      peerName: "b",
      path: "relay",
      via: { nodeId: "node_9", name: "relay-fra" },
      endpoint: "198.51.100.3:41641",
      lastHandshakeAt: null,
    },
    { peerNodeId: "node_4", peerName: "c", path: "unknown", via: null, endpoint: null, lastHandshakeAt: "2026-11-26T15:00:00Z" },
  ],
};

async function setup(routes: Record<string, FakeRoute> = {}) {
  const api = await startDeviceApi(routes);
  const { home, remove } = tempHome();
  stop.push(() => api.close(), remove);
  await enrolLaptop(runWgo, api.url, home);
  const host = fakeHost();
  const wgo = (args: string[]) => runWgo(["--home", home, ...args], { createSystem: host.createSystem, now: () => NOW });
  await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"]);
  host.links.get("wg7")!.dump = dumpText(1763719200, 10, 20).replace("\t0\toff", "\t45123\toff");
  return { api, wgo };
}

describe("wgo status and the paths", () => {
  it("asks GET /nodes/{id}/paths with the device credential and prints each peer's path and the candidates", async () => {
    const { api, wgo } = await setup({ "GET /nodes/node_1/paths": () => ({ status: 200, body: PATHS }) });
    const result = await wgo(["status", "--name", "laptop"]);
    expect(result.code, result.stderr).toBe(0);
    expect(api.requests.find((r) => r.path === "/nodes/node_1/paths")).toMatchObject({ method: "GET", token: DEVICE_TOKEN });
    const lines = result.stdout.split("\n");
    expect(lines).toContain("  interface wg7 in namespace ns1: up (setconf), UDP port 45123");
    // The interface's own peer line shows the endpoint WireGuard holds.
    expect(lines).toContain(
      "    peer xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=: endpoint 192.0.2.1:51820, handshake 2025-11-21T10:00:00.000Z, rx 10 B, tx 20 B",
    );
    expect(lines.slice(lines.indexOf("  paths (the server's view):"))).toEqual([
      "  paths (the server's view):",
      "    gw (node_2): direct, endpoint 192.0.2.1:51820, handshake 12 s ago",
      "    b (node_3): relay via relay-fra, endpoint 198.51.100.3:41641, no handshake",
      "    c (node_4): unknown, endpoint none, handshake 3 h ago",
      "  candidates: 192.168.1.10:45123 (local, 10 s ago), 203.0.113.7:45123 (observed, 3 min ago)",
      "",
    ]);
    const [json] = (await wgo(["--json", "status", "--name", "laptop"])).json;
    expect(json.paths).toEqual({ available: true, ...PATHS });
    expect(json.interface.listenPort).toBe(45123);
  });

  it("a server without the route (404): status still works and says the paths are unavailable", async () => {
    const { wgo } = await setup();
    const result = await wgo(["status", "--name", "laptop"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("  revision: applied 3, file 3, server 3: in sync\n");
    expect(result.stdout).toContain("  paths: unavailable: 404 not_found: no fake route for GET /nodes/node_1/paths\n");
    const [json] = (await wgo(["--json", "status", "--name", "laptop"])).json;
    expect(json.paths).toEqual({ available: false, reason: "404 not_found: no fake route for GET /nodes/node_1/paths" });
  });

  it("no peers and no candidates yet are said as such", async () => {
    const { wgo } = await setup({
      "GET /nodes/node_1/paths": () => ({ status: 200, body: { nodeId: "node_1", candidates: [], items: [] } }),
    });
    const result = await wgo(["status", "--name", "laptop"]);
    expect(result.stdout).toContain("  paths (the server's view): no peers\n  candidates: none learned yet\n");
  });
});
