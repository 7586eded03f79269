// Loses one in `every` echo requests a namespace sends (or forwards) to one address, with nftables: the
// probes of a prober whose path is lossy but works. Counters say how many were seen and how many dropped,
// so a test knows the loss really happened rather than assuming it.
import { check, run } from "../support/command.ts";

export interface ProbeLoss {
  /** Echo requests to the target seen so far, and how many of them were dropped. */
  counts(): Promise<{ seen: number; dropped: number }>;
  remove(): Promise<void>;
}

const TABLE = "wgo_e2e_probe_loss";

export async function loseEchoRequests(namespace: string, target: string, every: number): Promise<ProbeLoss> {
  // Output: the prober's own pings. Forward too, in case the probe is sent from beside the domain.
  const rule = `ip daddr ${target} icmp type echo-request counter numgen inc mod ${every} == 0 counter drop`;
  const ruleset = `table ip ${TABLE} {
  chain output { type filter hook output priority 0; policy accept; ${rule}; }
  chain forward { type filter hook forward priority 0; policy accept; ${rule}; }
}
`;
  await check(["ip", "netns", "exec", namespace, "nft", "-f", "-"], { input: ruleset });
  return {
    async counts() {
      const listed = await check(["ip", "netns", "exec", namespace, "nft", "list", "table", "ip", TABLE]);
      // Each rule has two counters: every echo request to the target, then the dropped ones.
      const packets = [...listed.matchAll(/counter packets (\d+)/g)].map((match) => Number(match[1]));
      return { seen: (packets[0] ?? 0) + (packets[2] ?? 0), dropped: (packets[1] ?? 0) + (packets[3] ?? 0) };
    },
    async remove() {
      await run(["ip", "netns", "exec", namespace, "nft", "delete", "table", "ip", TABLE]);
    },
  };
}
