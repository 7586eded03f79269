// `wgo access show` and `wgo access check`: the network's policy and one flow's decision, asked of the API
// with the signed-in user's token; the answer printed as a line (or JSON), refusals as the API words them.
import { afterEach, describe, expect, it } from "vitest";
import { runWgo } from "./support/cli.ts";
import type { FakeApi } from "./support/fake-api.ts";
import { type SignedIn, signedInHome } from "./support/signed-in.ts";

const NOW = Date.parse("2026-11-26T10:00:00.000Z");
const webRule = { action: "allow", src: ["tag:dev"], dst: ["tag:web"], ports: ["tcp:443"], description: "web only" };
const denyRule = { action: "deny", src: ["*"], dst: ["10.0.0.9/32"], ports: ["*"], expiresAt: "2026-12-01T00:00:00Z" };

let session: SignedIn | undefined;
let api: FakeApi | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function signedIn() {
  session = await signedInHome(
    {
      "GET /networks/net_1/access-policy": () => ({
        status: 200,
        body: {
          networkId: "net_1",
          mode: "policy",
          revision: 4,
          rules: [webRule, denyRule],
          tests: [{ src: "tag:dev", dst: "tag:web", port: "tcp:443", expect: "allow" }],
          updatedAt: null,
          updatedBy: null,
        },
      }),
      "GET /networks/net_1/access-check": (request) =>
        request.query.get("port") === "tcp:443"
          ? { status: 200, body: { allowed: true, rule: { ...webRule, index: 0 } } }
          : request.query.get("src") === "node_gone"
            ? { status: 404, body: { error: { code: "not_found", message: "Node node_gone not found" } } }
            : { status: 200, body: { allowed: false, rule: null } },
    },
    () => NOW,
  );
  api = session.api;
  return session.home;
}

describe("wgo access", () => {
  it("show prints the mode, the revision, each rule and test", async () => {
    const home = await signedIn();
    const shown = await runWgo(["--home", home, "access", "show", "--network", "net_1"], { now: () => NOW });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout.trim().split("\n")).toEqual([
      "net_1: access mode policy, revision 4, enforced (deny by default)",
      '  rule 0: allow tag:dev -> tag:web tcp:443 "web only"',
      "  rule 1: deny * -> 10.0.0.9/32 * (until 2026-12-01T00:00:00Z)",
      "  test: tag:dev -> tag:web tcp:443 expects allow",
    ]);
    expect(api!.requests.find((r) => r.path === "/networks/net_1/access-policy")?.token).toBe("access-1");
  });

  it("check says allowed or denied and which rule decided; a refusal is the API's message", async () => {
    const home = await signedIn();
    const check = (...args: string[]) =>
      runWgo(["--home", home, "access", "check", "--network", "net_1", "--from", "node_a", "--to", "10.0.0.5", ...args], {
        now: () => NOW,
      });
    const allowed = await check("--port", "tcp:443");
    expect(allowed.stdout.trim()).toBe('node_a -> 10.0.0.5 tcp:443: allowed by rule 0: allow tag:dev -> tag:web tcp:443 "web only"');
    const denied = await check("--port", "tcp:22");
    expect(denied.stdout.trim()).toBe("node_a -> 10.0.0.5 tcp:22: denied (no rule allows it: policy mode denies by default)");
    const asked = api!.requests.filter((r) => r.path === "/networks/net_1/access-check").map((r) => Object.fromEntries(r.query));
    expect(asked).toEqual([
      { src: "node_a", dst: "10.0.0.5", port: "tcp:443" },
      { src: "node_a", dst: "10.0.0.5", port: "tcp:22" },
    ]);

    const bad = await check("--port", "ssh");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--port ssh: expected icmp, tcp:PORT or udp:PORT");
    const gone = await runWgo(
      ["--home", home, "access", "check", "--network", "net_1", "--from", "node_gone", "--to", "node_b", "--port", "icmp"],
      { now: () => NOW },
    );
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("Node node_gone not found");
  });
});
