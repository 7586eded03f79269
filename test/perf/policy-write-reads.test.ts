// A policy write reads its network's row once: the access check and the write's own read of the row are one
// query, in the network's writer (issue 25). Measured here: the Worker's statements (with what D1 says each
// read) and the writer's meter (stats()), for one POST /networks/{id}/routing-policies.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { networkWriter } from "../../src/objects/network/client";
import { gatewayNetwork, signInAdmin } from "../helpers/factories";

const app = createApp();

/** The Worker's D1, recording each statement's SQL and the rows D1 reports it read (selects run once more, alone, for their meta). */
function recordingD1(inner: D1Database) {
  const seen: { sql: string; rowsRead: number }[] = [];
  const originals = new WeakMap<object, D1PreparedStatement>();
  const record = async (sql: string, statement: D1PreparedStatement) => {
    const rowsRead = /^\s*select/i.test(sql) ? ((await statement.all()).meta.rows_read ?? 0) : 0;
    seen.push({ sql, rowsRead });
  };
  const wrap = (sql: string, statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (property === "bind") return (...args: unknown[]) => wrap(sql, target.bind(...args));
        if (property === "all" || property === "raw" || property === "first" || property === "run") {
          return async (...args: unknown[]) => {
            await record(sql, target);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    originals.set(proxy, statement);
    return proxy;
  };
  const db = new Proxy(inner, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => wrap(sql, target.prepare(sql));
      if (property === "batch") return (statements: D1PreparedStatement[]) => target.batch(statements.map((s) => originals.get(s) ?? s));
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, seen };
}

describe("a policy write's D1 reads", () => {
  it("reads the network's row once: the Worker reads no network row, the writer one", async () => {
    const admin = await signInAdmin();
    const { network, hops } = await gatewayNetwork(admin, 1);
    const writer = networkWriter(env, network.id);
    await writer.stats(); // the writer holds the network (a node was just added through it)
    const before = await writer.stats();
    const { db, seen } = recordingD1(env.DB);
    const ctx = createExecutionContext();
    const response = await app.fetch(
      new Request(`http://api.test/api/v1/networks/${network.id}/routing-policies`, {
        method: "POST",
        headers: { Authorization: `Bearer ${admin.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "p", type: "via_gateway", destinationCidr: "172.30.0.0/16", gatewayPath: [hops[0]!.id] }),
      }),
      { ...env, DB: db },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(201);
    const after = await writer.stats();
    const worker = { statements: seen.length, rowsRead: seen.reduce((sum, s) => sum + s.rowsRead, 0) };
    const inWriter = { statements: after.statements - before.statements, rowsRead: after.rowsRead - before.rowsRead };
    console.log(JSON.stringify({ worker, writer: inWriter, workerSql: seen }));
    expect(seen.filter((s) => /from "networks"/i.test(s.sql))).toEqual([]);
  });
});
