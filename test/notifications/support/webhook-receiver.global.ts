// Runs in Node (vitest globalSetup of the workers project): a real HTTP receiver the Worker under test
// posts webhooks to. It checks every signature itself, the way docs/notifications.md tells receivers to.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { TestProject } from "vitest/node";

const TOLERANCE_SECONDS = 300;

interface Hook {
  secret?: string;
  responses: (number | "hang")[];
  received: Received[];
}
interface Received {
  headers: Record<string, string>;
  body: string;
  verified: boolean;
  reason?: string;
  status: number;
}

/** The documented check: t and v1 from the header, t within 5 minutes, v1 = HMAC-SHA256(secret, "<t>.<body>"). */
export function verifySignature(secret: string | undefined, header: string | undefined, body: string, now = Date.now()) {
  if (!secret) return { verified: false, reason: "no secret configured" };
  const parts = Object.fromEntries((header ?? "").split(",").map((part) => part.split("=", 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || !parts.v1) return { verified: false, reason: "malformed signature header" };
  if (Math.abs(now / 1000 - timestamp) > TOLERANCE_SECONDS) return { verified: false, reason: "timestamp outside 5 minutes (replay?)" };
  const expected = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest();
  const given = Buffer.from(parts.v1, "hex");
  const verified = given.length === expected.length && timingSafeEqual(given, expected);
  return verified ? { verified } : { verified, reason: "signature mismatch" };
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });

const json = (response: ServerResponse, status: number, value: unknown) => {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify(value));
};

export default async function setup(project: TestProject) {
  const hooks = new Map<string, Hook>();
  const hook = (id: string) => hooks.get(id) ?? hooks.set(id, { responses: [], received: [] }).get(id)!;
  const server = createServer(async (request, response) => {
    const [, area, id] = (request.url ?? "").split("/");
    const body = await readBody(request);
    if (area === "_control" && id && request.method === "PUT") {
      const settings = JSON.parse(body) as { secret?: string; responses?: (number | "hang")[] };
      Object.assign(hook(id), { secret: settings.secret ?? hook(id).secret, responses: settings.responses ?? [] });
      return json(response, 204, null);
    }
    if (area === "_control" && id && request.method === "GET") return json(response, 200, { received: hook(id).received });
    if (area === "hooks" && id && request.method === "POST") {
      const target = hook(id);
      const check = verifySignature(target.secret, request.headers["x-overlay-signature"] as string | undefined, body);
      const scripted = target.responses.shift();
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      if (scripted === "hang") {
        target.received.push({ headers, body, ...check, status: 0 });
        setTimeout(() => json(response, 200, { late: true }), 10_000).unref();
        return;
      }
      const status = scripted ?? (check.verified ? 200 : 401);
      target.received.push({ headers, body, ...check, status });
      if (status >= 300 && status < 400) {
        response.writeHead(status, { Location: `http://127.0.0.1:${port}/redirected/${id}` });
        return response.end();
      }
      return json(response, status, { ok: status < 300 });
    }
    if (area === "redirected" && id)
      hook(id).received.push({ headers: {}, body, verified: false, reason: "followed a redirect", status: 200 });
    return json(response, 404, { error: "unknown receiver path" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  project.provide("webhookReceiverUrl", `http://127.0.0.1:${port}`);
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

declare module "vitest" {
  export interface ProvidedContext {
    webhookReceiverUrl: string;
  }
}
