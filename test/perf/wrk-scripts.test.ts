import { createServer } from "node:http";
import { mkdtemp } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reportTarget } from "../../bench/failover-reports";
import { runWrk, WRK } from "../../bench/wrk";

/**
 * The bench's wrk scripts, run by wrk against a Node server that records what arrives. A script wrk
 * cannot load makes it fall back to GET of the URL (once measured as heartbeats): the bench must refuse that.
 */
describe("wrk scripts", () => {
  // One second is plenty for a Node server that answers at once.
  WRK.seconds = 1;

  it("sequenced rotation sends each device's bodies with rising bases, and counts resync answers", async () => {
    const seen: { path: string; auth: string; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        seen.push({ path: `${req.method} ${req.url}`, auth: String(req.headers.authorization), body });
        res.end(body.includes('"base":7}') ? '{"peerReport":{"seq":null,"resync":true}}' : '{"peerReport":{"seq":1,"resync":false}}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await runWrk(
        baseUrl,
        {
          label: "sequenced",
          method: "POST",
          path: "/api/v1/health",
          rotate: [
            { path: "/api/v1/a/heartbeat", token: "tok-a" },
            { path: "/api/v1/b/heartbeat", token: "tok-b" },
          ],
          sequenced: { prefix: '{"peerReport":{"base":', suffix: "}}", seqs: [5, 40] },
        },
        await mkdtemp(join(tmpdir(), "wrk-script-")),
      );
      expect(seen.length).toBeGreaterThan(10);
      expect(seen.every((request) => request.path !== "GET /api/v1/health")).toBe(true);
      const bases = (path: string) =>
        seen.filter((request) => request.path === `POST ${path}`).map((request) => Number(/"base":(\d+)/.exec(request.body)?.[1]));
      expect(
        bases("/api/v1/a/heartbeat")
          .sort((x, y) => x - y)
          .slice(0, 3),
      ).toEqual([5, 6, 7]);
      expect(bases("/api/v1/b/heartbeat").sort((x, y) => x - y)[0]).toBe(40);
      expect(seen.filter((request) => request.path.includes("/a/")).every((request) => request.auth === "Bearer tok-a")).toBe(true);
      expect(result.resyncs).toBe(1);
    } finally {
      server.close();
    }
  });

  it("the failover bench's reports: each agent's own body and credential, its bases rising from its own", async () => {
    const seen: { auth: string; body: string; path: string }[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        seen.push({ auth: String(req.headers.authorization), body, path: `${req.method} ${req.url}` });
        res.end(body.includes('"base":12}') ? '{"nodes":[{"peerReport":{"seq":null,"resync":true}}]}' : '{"nodes":[]}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const agent = (node: string, seq: number) => ({
        credential: `agc-${node}`,
        prefix: `{"nodes":[{"nodeId":"${node}","peerReport":{"base":`,
        suffix: "}}]}",
        seq,
      });
      const path = "/api/v1/agents/me/report";
      const result = await runWrk(
        baseUrl,
        reportTarget([agent("n1", 10), agent("n2", 300), agent("n3", 7)]),
        await mkdtemp(join(tmpdir(), "wrk-script-")),
      );
      expect(seen.length).toBeGreaterThan(10);
      expect(seen.every((request) => request.path === `POST ${path}`)).toBe(true);
      const bases = (node: string) =>
        seen
          .filter((request) => request.body.includes(`"nodeId":"${node}"`))
          .map((request) => {
            expect(request.auth).toBe(`Bearer agc-${node}`);
            return Number(/"base":(\d+)/.exec(request.body)?.[1]);
          })
          .sort((x, y) => x - y);
      expect(bases("n1").slice(0, 3)).toEqual([10, 11, 12]);
      expect(bases("n2")[0]).toBe(300);
      expect(bases("n3").slice(0, 2)).toEqual([7, 8]);
      // Only agent n1's base 12 (n3 reaches 12 too once it has sent 6 reports): at least one resync counted.
      expect(result.resyncs).toBeGreaterThanOrEqual(1);
    } finally {
      server.close();
    }
  });
});
