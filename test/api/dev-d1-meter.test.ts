import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { TEST_ADMIN } from "../test-secrets";

async function fetchWith(path: string, init: RequestInit, vars: Record<string, string>) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`http://api.test${path}`, init) as Request<unknown, IncomingRequestCfProperties>,
    { ...env, ...vars } as typeof env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

const login = (vars: Record<string, string>) =>
  fetchWith(
    "/api/v1/auth/login",
    {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: TEST_ADMIN.email, password: TEST_ADMIN.password }),
    },
    vars,
  );
const on = { DEV_D1_METER: "true" };
const readMeter = async () => (await (await fetchWith("/__d1-meter", { redirect: "manual" }, on)).json()) as any;

describe("GET /__d1-meter, the Worker's own D1 meter (development only)", () => {
  it("counts the rows a request writes through the Worker's binding when DEV_D1_METER is true, and is nothing otherwise", async () => {
    const before = await readMeter();
    // Off (production's default): a sign-in (a session row written) is not metered, and the path is the console's.
    expect((await login({})).status).toBe(200);
    expect(await readMeter()).toEqual(before);
    const off = await fetchWith("/__d1-meter", { redirect: "manual" }, {});
    expect(off.status).toBe(303);

    expect((await login(on)).status).toBe(200);
    const after = await readMeter();
    expect(after.statements).toBeGreaterThan(before.statements);
    expect(after.rowsRead).toBeGreaterThan(before.rowsRead);
    // D1's own meta.rows_written of the sign-in's writes (its session row at least).
    expect(after.rowsWritten).toBeGreaterThan(before.rowsWritten);
  });
});
