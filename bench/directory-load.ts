// Drives the SCIM routes for bench/directory.bench.ts: a pool of concurrent requests with each one's latency,
// the Worker's own D1 meter around a phase, and WireGuard public keys made in-process (no `wg` per key).
import { generateKeyPairSync } from "node:crypto";
import { workerMeter } from "./fleet-meter.ts";

export interface Phase {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  rowsRead: number;
  rowsWritten: number;
  statements: number;
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

/** Runs `count` requests `width` at a time (a pool, not waves); each must answer `status`. */
export async function measured(
  baseUrl: string,
  count: number,
  width: number,
  send: (i: number) => Promise<Response>,
  status: number,
): Promise<Phase> {
  const before = await workerMeter(baseUrl);
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const at = performance.now();
      const response = await send(i);
      latencies.push(performance.now() - at);
      if (response.status !== status) throw new Error(`request ${i}: ${response.status} ${await response.text()}`);
      await response.body?.cancel();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  const seconds = (performance.now() - started) / 1000;
  const after = await workerMeter(baseUrl);
  return {
    requests: count,
    seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    // The meter's own GET is one statement on neither side: the deltas are the phase's.
    rowsRead: (after.rowsRead - before.rowsRead) / count,
    rowsWritten: (after.rowsWritten - before.rowsWritten) / count,
    statements: (after.statements - before.statements) / count,
  };
}

/** A WireGuard (X25519) public key in base64, as `wg pubkey` prints it. */
export function publicKey(): string {
  const jwk = generateKeyPairSync("x25519").publicKey.export({ format: "jwk" });
  return Buffer.from(jwk.x!, "base64url").toString("base64");
}

export const scimFetch = (baseUrl: string, token: string) => (method: string, path: string, body?: unknown) =>
  fetch(`${baseUrl}/api/v1/scim/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/scim+json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
