// A counting pass-through in front of the Worker for one gateway machine: the agent is enrolled with this
// proxy's origin as its API, so every request it makes (polls, reports, key claims) passes here and is
// timestamped. That is the cost of the failover cadence as the server sees it: requests per gateway per
// second. Bodies stream through untouched (long polls stay open as long as the Worker holds them).
import { request, createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ApiRequestLog {
  /** Origin such as http://127.0.0.1:41234, to enrol the agent with. */
  url: string;
  /** Every request so far: when it arrived and its path without the query. */
  requests(): { at: number; path: string }[];
  /** Requests that arrived in [from, to), by the last path segment (desired-state, report, …). */
  countBetween(from: number, to: number): Map<string, number>;
  close(): Promise<void>;
}

export async function startApiCounter(target: string): Promise<ApiRequestLog> {
  const upstream = new URL(target);
  const seen: { at: number; path: string }[] = [];
  const forward = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    seen.push({ at: Date.now(), path: (incoming.url ?? "/").split("?")[0]! });
    const proxied = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    // The agent gave up (its own timeout, or it was killed): the Worker's long poll is not held for nobody.
    outgoing.on("close", () => proxied.destroy());
    proxied.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502).end();
      else outgoing.destroy();
    });
    incoming.pipe(proxied);
  };
  const server = createServer(forward);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => [...seen],
    countBetween(from, to) {
      const counts = new Map<string, number>();
      for (const { at, path } of seen) {
        if (at < from || at >= to) continue;
        // Key claims name the node (…/agents/me/nodes/<id>): counted together.
        const kind = path.includes("/agents/me/nodes/") ? "nodes" : (path.split("/").pop() ?? path);
        counts.set(kind, (counts.get(kind) ?? 0) + 1);
      }
      return counts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
