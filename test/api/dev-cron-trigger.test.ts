import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { createGroup, createNetwork, createNode, signInAdmin } from "../helpers/factories";

async function fetchWith(path: string, vars: Record<string, string>) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`http://api.test${path}`, { redirect: "manual" }),
    { ...env, ...vars } as typeof env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

describe("GET /__scheduled, the development cron trigger", () => {
  it("runs the scheduled work once when DEV_CRON_TRIGGER is true, and is nothing otherwise", async () => {
    const admin = await signInAdmin();
    const network = await createNetwork(admin, (await createGroup(admin)).id);
    const node = await createNode(admin, network.id);
    // As if the node had just heartbeated: the presence detector records a verdict only for nodes seen once.
    await env.DB.prepare("UPDATE nodes SET last_seen_at = ? WHERE id = ?").bind(new Date().toISOString(), node.id).run();
    const presence = () => env.DB.prepare("SELECT * FROM node_presence WHERE node_id = ?").bind(node.id).all();
    expect((await presence()).results).toEqual([]);

    // Off (production's default): the path is nobody's cron trigger, only the console's (sign in first).
    expect(env.DEV_CRON_TRIGGER).toBe("false");
    const off = await fetchWith("/__scheduled", {});
    expect(off.status).toBe(303);
    expect(off.headers.get("location")).toBe("/sign-in");
    expect((await presence()).results).toEqual([]);

    const response = await fetchWith("/__scheduled", { DEV_CRON_TRIGGER: "true" });
    expect(response.status).toBe(200);
    // The node-presence detector recorded its verdict for the new node: the cron's work happened.
    expect((await presence()).results).toEqual([expect.objectContaining({ node_id: node.id, state: "online" })]);
  });
});
