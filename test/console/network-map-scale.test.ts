// The network map's render time and bytes as a network grows (docs/console.md, "The network map"): a
// measurement, run on demand since seeding 1,000 nodes through the API takes a while:
//   VITE_MAP_SCALE=1 WRANGLER_SEND_METRICS=false npx vitest run --project workers test/console/network-map-scale.test.ts
// It prints each size's figures and holds the page to the bounds the map promises.
import { describe, expect, it } from "vitest";
import { setSeen } from "../gateway-pools/support";
import { post } from "../helpers/api";
import { fakePublicKey, networkSetup } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";

// Vite hands VITE_-prefixed variables of the shell to the tests (import.meta.env).
const enabled = Boolean((import.meta as unknown as { env?: Record<string, string | undefined> }).env?.VITE_MAP_SCALE);
const TAGS = ["tag:web", "tag:db", "tag:ops", "tag:lab"];

async function grow(token: string, networkId: string, from: number, to: number) {
  const ids: string[] = [];
  for (let start = from; start < to; start += 25) {
    const batch = Array.from({ length: Math.min(25, to - start) }, (_, k) => start + k);
    const created = await Promise.all(
      batch.map((i) =>
        post("/nodes", { networkId, name: `dev-${i}`, publicKey: fakePublicKey(), tags: i % 10 === 9 ? [] : [TAGS[i % 4]!] }, token),
      ),
    );
    for (const answer of created) {
      expect(answer.status, answer.text).toBe(201);
      ids.push(answer.body.id as string);
    }
  }
  await setSeen(
    ids.filter((_, i) => i % 3 !== 0),
    0,
  );
}

describe.skipIf(!enabled)("network map at 100 and 1,000 nodes", () => {
  it("renders within bounds, and says how long it took and how big it is", async () => {
    const { admin, network } = await networkSetup({ cidr: "10.250.0.0/20" });
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    let made = 0;
    for (const size of [100, 1_000]) {
      await grow(admin.token, network.id, made, size);
      made = size;
      for (const search of ["", "?q=dev-42"]) {
        await agent.get(`/networks/${network.id}/map${search}`); // warm
        const times: number[] = [];
        let bytes = 0;
        for (let run = 0; run < 5; run++) {
          const began = performance.now();
          const page = await agent.get(`/networks/${network.id}/map${search}`);
          times.push(performance.now() - began);
          expect(page.status).toBe(200);
          bytes = new TextEncoder().encode(page.text).length;
        }
        times.sort((a, b) => a - b);
        const what = search ? "searched (a group opened: up to 200 tiles)" : "plain";
        console.log(
          `map of ${size} nodes, ${what}: median ${times[2]?.toFixed(0)} ms (min ${times[0]?.toFixed(0)}), ${(bytes / 1024).toFixed(1)} KiB`,
        );
        // 200 tiles at most either way: the page stays under ~100 KiB whatever the network's size.
        expect(bytes).toBeLessThan(100_000);
      }
    }
  }, 600_000);
});
