import { type D1Meter, meteredD1, newMeter } from "./db/metered-d1";
import type { Env } from "./lib/env";

/**
 * The Worker's own D1 use, measured, in development only (DEV_D1_METER=true, which the fleet bench sets): every
 * request's `c.var.db` runs through a metered binding (db/metered-d1.ts) that adds D1's meta.rows_read and
 * rows_written to one meter of this isolate, and `GET /__d1-meter` answers it. The network writers keep their own
 * meters (GET /networks/{id}/writer); together they are what the API's requests cost D1. Off, the binding is D1's
 * own and the path is the console's like any other (under wrangler dev every request shares one isolate, so one
 * meter sees them all; on Workers each isolate would count only its own, which is why this is not a production route).
 */
const meter: D1Meter = newMeter();

export const DEV_D1_METER_PATH = "/__d1-meter";

/** The D1 binding a request uses: metered when DEV_D1_METER is "true". */
export const workerD1 = (env: Env): D1Database => (env.DEV_D1_METER === "true" ? meteredD1(env.DB, meter) : env.DB);

export function isDevD1Meter(request: Request, env: Env) {
  return env.DEV_D1_METER === "true" && request.method === "GET" && new URL(request.url).pathname === DEV_D1_METER_PATH;
}

export const devD1Meter = () => Response.json(meter, { headers: { "Cache-Control": "no-store" } });
