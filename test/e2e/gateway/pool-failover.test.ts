// Issues 16 and 27's proof: a 3-hop chain whose second hop is a pool of two gateways, every gateway run only by
// `wgo gateway run` (default settings). FAILOVER_RUNS times each (3 by default), the member active now is
// killed (agent and interface), then stops forwarding while up, then is drained by an operator; each time
// traffic must resume through the other member within the bound of its kind (pool-faults.ts states the
// margin), the failed member is repaired and must stay standby. The outage a user sees (last ping reply
// before the failure, first after) is printed as one table, with what the agents' cadence costs in requests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAnswer } from "../support/api-client.ts";
import { waitFor } from "../support/command.ts";
import { canRunDataPlane } from "../support/netns.ts";
import { requestRates } from "./api-cost.ts";
import { FAILOVER_RUNS, FAULTS, failActiveMember, outageTable, type Outage } from "./pool-faults.ts";
import { MACHINES, openPoolLab, type PoolLab } from "./pool-lab.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.ts";

const dataPlane = canRunDataPlane();
if (!dataPlane.ok) console.warn(`\n!!! SKIPPING the gateway pool e2e: ${dataPlane.reason} !!!\n`);

/** The steady window the request rate is read over: long enough for several report rounds and a long poll. */
const STEADY_WINDOW_MS = 20_000;

describe.skipIf(!dataPlane.ok)("a pool at hop 2 fails over, again and again, within its bound", () => {
  let lab: PoolLab;
  let hooks: WebhookReceiver;
  let steady: { from: number; to: number } | undefined;
  const outages: Outage[] = [];

  beforeAll(async () => {
    hooks = await startWebhookReceiver();
    lab = await openPoolLab("gwpool", 62, { WEBHOOK_ALLOW_HTTP_LOOPBACK: "true" });
    expectAnswer(
      await lab.admin.POST("/api/v1/notifications/channels", {
        body: { type: "webhook", target: hooks.url, events: ["gateway.failover"] },
      }),
      201,
      "webhook channel",
    );
  });

  afterAll(async () => {
    if (outages.length > 0) console.log(`gateway pool failover outages (ms), ${FAILOVER_RUNS} runs a kind:\n${outageTable(outages)}`);
    if (lab && steady) console.log(requestRates(lab, steady, outages));
    await lab?.close();
    await hooks?.close();
  });

  it("every gateway configures itself; a device pings through G1, the active member G2, and G4", async () => {
    await lab.bringUp();
    expect(lab.pings!.replies().length).toBeGreaterThan(5);
  });

  it(`costs the API a few requests a second per gateway while nothing happens (${STEADY_WINDOW_MS / 1000} s)`, async () => {
    const from = Date.now();
    await new Promise((resolve) => setTimeout(resolve, STEADY_WINDOW_MS));
    steady = { from, to: Date.now() };
    for (const machine of MACHINES)
      expect(
        lab.api[machine].requests().some((r) => r.at >= from),
        `${machine} is silent`,
      ).toBe(true);
  }, 60_000);

  for (const fault of FAULTS) {
    for (let run = 1; run <= FAILOVER_RUNS; run++) {
      it(`${fault.kind}, run ${run}: traffic resumes through the other member within ${fault.boundMs} ms`, async () => {
        const outage = await failActiveMember(lab, fault, run);
        outages.push(outage);
        expect(outage.ms, `${fault.kind} run ${run}`).toBeLessThan(fault.boundMs);
      });
    }
  }

  it("each failover is a gateway.failover notification and an audit row", async () => {
    const runs = outages.length;
    expect(runs).toBe(FAULTS.length * FAILOVER_RUNS);
    // Deliveries go out after the writer's answer or on the Cron Trigger's queue run (run here by hand).
    const received = () => hooks.received.filter((hook) => hook.event === "gateway.failover");
    await waitFor(
      `${runs} gateway.failover webhooks`,
      async () => {
        expect((await fetch(`${lab.server.baseUrl}/__scheduled`)).status).toBe(200);
        return received().length >= runs;
      },
      { timeoutMs: 30_000, intervalMs: 1_000, details: () => JSON.stringify(hooks.received).slice(0, 1000) },
    );
    expect(received().map((hook) => hook.body.data.reason)).toEqual(
      expect.arrayContaining([expect.stringMatching(/not forwarding/), "drained"]),
    );
    const query = { networkId: lab.fleet.networkId, limit: 200 };
    const audit = expectAnswer(await lab.admin.GET("/api/v1/audit", { params: { query } }), 200, "audit");
    expect(audit.items.filter((row) => row.route === "gateway.failover").length).toBeGreaterThanOrEqual(runs);
  });

  it("leaves no namespace or process behind", async () => {
    expect(await lab.leftovers()).toEqual({ namespaces: [], processes: [] });
  });
});
