// `wgo heartbeat --apply` keeps a policy-mode node's nftables filter (docs/access.md) in step with the deltas
// it applies with `wg set`: a rule added or expired on the server changes the loaded table, and the network
// going back to open mode removes it. (The data-plane proof: test/e2e/access/policy-data-plane.test.ts.)
import { afterEach, describe, expect, it } from "vitest";
import { runWgo, tempHome } from "./support/cli.ts";
import { dumpText, enrolLaptop, startDeviceApi } from "./support/device-api.ts";
import { fakeHost } from "./support/fake-system.ts";

let stop: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of stop.reverse()) await step();
  stop = [];
});

describe("wgo heartbeat --apply and access filters", () => {
  it("loads, changes and removes the interface's filter as deltas carry accessRules", async () => {
    const api = await startDeviceApi();
    const { home, remove } = tempHome();
    stop.push(() => api.close(), remove);
    await enrolLaptop(runWgo, api.url, home);
    const host = fakeHost();
    const wgo = (args: string[]) => runWgo(["--home", home, "--json", ...args], { createSystem: host.createSystem });
    expect((await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"])).code).toBe(0);
    host.links.get("wg7")!.dump = dumpText(1763719200, 1234, 5678);
    const beat = async () => {
      const result = await wgo(["heartbeat", "--name", "laptop", "--once", "--apply"]);
      expect(result.code, result.stderr).toBe(0);
      return result.json[0];
    };
    const table = () => host.nftTables.get("ns1 wgo_access_wg7");

    api.state.revision = 4;
    api.state.accessRules = [{ from: ["10.77.0.2/32"], ports: ["tcp:443"] }];
    expect(await beat()).toMatchObject({ applied: { revision: 4, action: "delta" } });
    expect(table()).toContain("ip saddr { 10.77.0.2/32 } tcp dport { 443 } accept");

    // A temporary rule lapses on the server: the next delta narrows the loaded filter.
    api.state.revision = 5;
    api.state.accessRules = [{ from: ["10.77.0.2/32"], ports: ["tcp:443", "tcp:8443"] }];
    await beat();
    expect(table()).toContain("tcp dport { 443, 8443 } accept");
    api.state.revision = 6;
    api.state.accessRules = [{ from: ["10.77.0.2/32"], ports: ["tcp:443"] }];
    expect(await beat()).toMatchObject({ applied: { revision: 6, action: "delta" } });
    expect(table()).not.toContain("8443");

    // Back to open mode: the delta says accessRules null, and the table goes.
    api.state.revision = 7;
    api.state.accessRules = undefined;
    await beat();
    expect(table() ?? "", "the table replaced by nothing").toBe("");
  });
});
