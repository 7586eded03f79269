// Observation only: named nftables counters in the relay's routing domain (where `wgo gateway run` keeps the
// node's interface and forwarding) that count what the relay forwards between the two laptops, per
// direction. They sit in a table of their own, in a chain that accepts everything, so the relay behaves
// exactly as without them; the agent replaces only its own tables.
import { check, run } from "../support/command.ts";

const TABLE = "nat_observe";

export interface Forwarded {
  /** Packets and bytes the relay forwarded from laptop 1 to laptop 2, and back. */
  oneToTwo: { packets: number; bytes: number };
  twoToOne: { packets: number; bytes: number };
}

export class RelayCounters {
  constructor(private readonly domain: () => string) {}

  /** Counts forwarded packets between the laptops' overlay addresses (the domain must exist: relayReady first). */
  async install(overlayOne: string, overlayTwo: string): Promise<void> {
    const ruleset = `
table inet ${TABLE} {}
delete table inet ${TABLE}
table inet ${TABLE} {
  counter one_to_two {}
  counter two_to_one {}
  chain forward {
    type filter hook forward priority -10; policy accept;
    ip saddr ${overlayOne} ip daddr ${overlayTwo} counter name "one_to_two"
    ip saddr ${overlayTwo} ip daddr ${overlayOne} counter name "two_to_one"
  }
}
`;
    await check(["ip", "netns", "exec", this.domain(), "nft", "-f", "-"], { input: ruleset });
  }

  async read(): Promise<Forwarded> {
    const one = async (name: string) => {
      const listed = await run(["ip", "netns", "exec", this.domain(), "nft", "-j", "list", "counter", "inet", TABLE, name]);
      if (listed.code !== 0) throw new Error(`relay counter ${name}: ${listed.stderr}`);
      const entry = (JSON.parse(listed.stdout).nftables as Array<{ counter?: { packets: number; bytes: number } }>).find((e) => e.counter);
      return { packets: entry?.counter?.packets ?? 0, bytes: entry?.counter?.bytes ?? 0 };
    };
    return { oneToTwo: await one("one_to_two"), twoToOne: await one("two_to_one") };
  }
}

export const forwardedPackets = (counted: Forwarded) => counted.oneToTwo.packets + counted.twoToOne.packets;
