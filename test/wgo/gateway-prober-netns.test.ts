// The real prober (cli/gateway/prober.mjs) with real `ping -O` in a network namespace, across a veth to a
// second namespace: a path that forwards stays up, dropping echoes there (nftables) turns the probe down
// in about downAfter x interval, lifting the drop brings it back, a target with no route at all (ping exits
// at once) turns down too, and stopping leaves no process in the namespace.
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "./support/cli.ts";

const sh = (...args: string[]) => execFileSync(args[0]!, args.slice(1), { stdio: ["pipe", "pipe", "pipe"] }).toString();
const inNs = (ns: string, ...args: string[]) => sh("ip", "netns", "exec", ns, ...args);
const suffix = process.pid.toString(36);
const [prober, far] = [`prb-p-${suffix}`, `prb-f-${suffix}`];
const FORWARDS = { target: "10.97.0.2", acrossNodeId: "node_m1" };
const NO_ROUTE = { target: "10.96.0.9", acrossNodeId: "node_m2" };
const DROP_ECHOES = `table inet wgo_probe_test {
  chain input {
    type filter hook input priority filter; policy accept;
    icmp type echo-request drop
  }
}
`;

describe("the prober against a real namespace pair", () => {
  beforeAll(() => {
    for (const ns of [prober, far]) sh("ip", "netns", "add", ns);
    sh("ip", "link", "add", "prbp0", "netns", prober, "type", "veth", "peer", "name", "prbf0", "netns", far);
    inNs(prober, "ip", "addr", "add", "10.97.0.1/24", "dev", "prbp0");
    inNs(far, "ip", "addr", "add", "10.97.0.2/24", "dev", "prbf0");
    for (const [ns, dev] of [
      [prober, "prbp0"],
      [far, "prbf0"],
    ] as const)
      inNs(ns, "ip", "link", "set", dev, "up");
  });
  afterAll(() => {
    for (const ns of [prober, far]) execFileSync("ip", ["netns", "del", ns], { stdio: "ignore" });
  });

  it("turns down within half a second of echoes stopping, up again after they return, and leaves no ping behind", async () => {
    const turns: Array<{ at: number; line: string }> = [];
    const rules = cli.probeJudge.DEFAULT_PROBE_RULES;
    const running = cli.prober.createProber({
      systemFor: (netns: string | null) => cli.system.createSystem({ netns: netns ?? undefined, env: process.env }),
      log: (line: string) => turns.push({ at: Date.now(), line }),
      onTurn: () => {},
      rules,
    });
    const node = { nodeId: "node_p", netns: prober, probes: [FORWARDS, NO_ROUTE] };
    const ok = () => running.results(node.nodeId, node.netns, node.probes).map((r: { ok: boolean }) => r.ok);
    try {
      await running.sync([node], rules);
      expect(inNs(prober, "ip", "netns", "pids", prober).trim()).not.toBe("");
      await expect.poll(ok, { timeout: 5_000, interval: 50 }).toEqual([true, false]);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(ok()[0], "a forwarding path stays up").toBe(true);

      execFileSync("ip", ["netns", "exec", far, "nft", "-f", "-"], { input: DROP_ECHOES });
      const dropped = Date.now();
      await expect.poll(ok, { timeout: 5_000, interval: 20 }).toEqual([false, false]);
      const downMs = Date.now() - dropped;
      inNs(far, "nft", "delete", "table", "inet", "wgo_probe_test");
      const lifted = Date.now();
      await expect.poll(ok, { timeout: 5_000, interval: 20 }).toEqual([true, false]);
      const upMs = Date.now() - lifted;
      // 4 echoes at the interval (100 ms): 0.3-0.4 s after the first one lost, plus the time to notice; never sooner
      // than the 3 intervals after the first loss, and room above for a loaded machine.
      expect(downMs).toBeGreaterThanOrEqual(3 * rules.intervalMs - 20);
      expect(downMs).toBeLessThan(3_000);
      expect(upMs).toBeLessThan(3_000);
      console.log(`real prober at ${rules.intervalMs} ms: down ${downMs} ms after echoes stopped, up ${upMs} ms after they returned`);
      expect(turns.map((t) => t.line)).toContainEqual(
        expect.stringMatching(/probe of 10\.96\.0\.9 across node_m2: ping ended \(exit 2: .*unreachable/),
      );
    } finally {
      await running.stop();
    }
    expect(sh("ip", "netns", "pids", prober).trim(), "no ping left in the namespace").toBe("");
  }, 30_000);
});
