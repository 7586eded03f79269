// A device's long poll is one trip to its network's writer: the writer waits for the routing revision to
// move, then reads the config, in the same call (issue 25: it used to be Worker → writer → Worker → writer).
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { enrolDevice, networkSetup } from "../helpers/factories";
import { chain, enrolDaemon } from "../gateway-pools/support";

const app = createApp();

/** The writers' binding, recording each RPC method called on a stub it hands out. */
function recordingNamespace(inner: DurableObjectNamespace) {
  const calls: string[] = [];
  const namespace = new Proxy(inner, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== "get") return typeof value === "function" ? value.bind(target) : value;
      return (id: DurableObjectId) => {
        const stub = target.get(id);
        return new Proxy(stub, {
          get(stubTarget, name) {
            const method = Reflect.get(stubTarget, name, stubTarget);
            if (typeof method !== "function") return method;
            return (...args: unknown[]) => {
              calls.push(String(name));
              return Reflect.apply(method, stubTarget, args);
            };
          },
        });
      };
    },
  });
  return { namespace, calls };
}

describe("a device's long poll", () => {
  it("calls its network's writer once: wait and read in one trip", async () => {
    const { admin, network } = await networkSetup();
    const device = await enrolDevice(admin, { networkId: network.id });
    const { namespace, calls } = recordingNamespace(env.NETWORK_WRITER);
    const send = async (body: unknown, query = "") => {
      const ctx = createExecutionContext();
      const response = await app.fetch(
        new Request(`http://api.test/api/v1/client/devices/${device.deviceId}/config${query}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${device.deviceToken}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        }),
        { ...env, NETWORK_WRITER: namespace },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      expect(response.status).toBe(200);
      return (await response.json()) as { config?: { routingRevision: number }; delta?: unknown };
    };
    const held = (await send({})).config!.routingRevision;
    calls.length = 0;
    const answer = await send({ sinceRevision: held }, "?wait=1");
    expect(answer.delta).toMatchObject({ fromRevision: held, routingRevision: held, peersUpserted: [], peersRemoved: [] });
    expect(calls).toEqual(["awaitConfig"]);
  });
});

describe("a gateway agent's long poll", () => {
  it("waits in its served network's writer beside its D1 check, so a routing change (a failover) wakes it at once", async () => {
    const { admin, gw1 } = await chain();
    const credential = await enrolDaemon(admin, gw1.gatewayId);
    const { namespace, calls } = recordingNamespace(env.NETWORK_WRITER);
    const poll = async (etag?: string) => {
      const ctx = createExecutionContext();
      const response = await app.fetch(
        new Request(`http://api.test/api/v1/agents/me/desired-state${etag ? "?wait=1" : ""}`, {
          headers: { Authorization: `Bearer ${credential}`, ...(etag ? { "If-None-Match": etag } : {}) },
        }),
        { ...env, NETWORK_WRITER: namespace },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return response;
    };
    const first = await poll();
    expect(first.status).toBe(200);
    calls.length = 0;
    const waited = await poll(first.headers.get("ETag")!);
    expect(waited.status).toBe(304);
    expect(calls).toEqual(["awaitRoutingChange"]);
  });
});
