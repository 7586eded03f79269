// The common ways bringing a machine up fails, each said in plain words with what to check (and a code
// for --json): the WireGuard port taken, no handshake, not root, missing tools, TLS, no answer.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli, runWgo, tempHome } from "./support/cli.ts";
import { enrolLaptop, PEER_KEY, startDeviceApi } from "./support/device-api.ts";
import { fakeHost } from "./support/fake-system.ts";

let stop: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of stop.reverse()) await step();
  stop = [];
});

/** An enrolled laptop on a simulated host that fails the way `failing` says. */
async function enrolledOn(failing: Array<[RegExp, string]> = [], listenPort: number | null = null) {
  const api = await startDeviceApi();
  api.state.listenPort = listenPort;
  const { home, remove } = tempHome();
  stop.push(() => api.close(), remove);
  await enrolLaptop(runWgo, api.url, home);
  const host = fakeHost({ failing });
  const wgo = (args: string[], env?: Record<string, string>) => runWgo(["--home", home, ...args], { createSystem: host.createSystem, env });
  return { api, home, host, wgo };
}

describe("plain messages for the common failures", () => {
  it("the WireGuard port in use (EADDRINUSE) names the UDP port and who to ask", async () => {
    const { host, wgo } = await enrolledOn([[/^wg setconf /, "Unable to modify interface: Address already in use"]], 51820);
    const result = await wgo(["--json", "up", "--name", "laptop", "--method", "setconf"]);
    expect(result.code).toBe(1);
    expect(result.json[0].error.code).toBe("port_in_use");
    expect(result.json[0].error.message).toBe(
      "UDP port 51820 is already in use on this machine (another WireGuard interface or program holds it): " +
        "free it (`ss -ulpn 'sport = :51820'` shows who), or give this node another listenPort",
    );
    expect(host.links.has("wg0"), "the half-made interface is removed again").toBe(false);
  });

  it("not root: an EPERM from creating the interface says to run it with sudo", async () => {
    const { wgo } = await enrolledOn([[/^wireguard-go /, "ERROR: (wg0) 2026/11/24 Failed to create TUN device: operation not permitted"]]);
    const result = await wgo(["up", "--name", "laptop", "--method", "setconf"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "error: wireguard-go wg0 did not create the interface: ERROR: (wg0) 2026/11/24 Failed to create TUN device: operation not permitted; " +
        "this needs root (CAP_NET_ADMIN for interfaces, write access for system files): run it with sudo\n",
    );
  });

  it("a missing tool names the package to install (the real process runner, with an empty PATH)", async () => {
    const api = await startDeviceApi();
    const { home, remove } = tempHome();
    const empty = mkdtempSync(join(tmpdir(), "wgo-nopath-"));
    stop.push(
      () => api.close(),
      remove,
      () => rmSync(empty, { recursive: true, force: true }),
    );
    await enrolLaptop(runWgo, api.url, home);
    const result = await runWgo(["--home", home, "--json", "up", "--name", "laptop"], { env: { PATH: empty } });
    expect(result.code).toBe(1);
    expect(result.json[0].error).toEqual({ code: "missing_tool", message: "ip is not installed (or not on PATH): install iproute2" });
    const sys = cli.system.createSystem({ env: { PATH: empty } });
    await expect(sys.run(["wg", "show"])).rejects.toThrow("wg is not installed (or not on PATH): install wireguard-tools");
  });

  it("--wait-handshake: no handshake in time names the peers' UDP endpoints and this machine's listen port", async () => {
    const { host, wgo } = await enrolledOn();
    const up = await wgo(["up", "--name", "laptop", "--method", "setconf"]);
    expect(up.code, up.stderr).toBe(0);
    // Listening on 51820, the peer never answered (latest handshake 0).
    host.links.get("wg0")!.dump = `priv\tpub\t51820\toff\n${PEER_KEY}\t(none)\t192.0.2.1:51820\t10.77.0.2/32\t0\t0\t148\t25\n`;
    const result = await wgo(["--json", "up", "--network", "net_1", "--name", "laptop", "--wait-handshake", "1"]);
    expect(result.code).toBe(1);
    expect(result.json.at(-1).error).toEqual({
      code: "no_handshake",
      message:
        "wg0 is up, but no peer completed a handshake within 1 s: this machine must reach the peers' endpoints over UDP (192.0.2.1:51820), " +
        "and peers that connect here need UDP port 51820 open to this machine; check firewalls and NAT for UDP (`wgo status` shows the handshakes later)",
    });
    // What happened before the wait stays said (the device is enrolled and up), on stderr beside the error.
    expect(result.stderr).toContain('note: "laptop" is already enrolled in net_1');
    // The traffic that makes WireGuard try: a ping to the peer's overlay address, from the interface's side.
    expect(host.calls).toContainEqual(["ping", "-c", "1", "-W", "1", "-q", "10.77.0.2"]);

    host.links.get("wg0")!.dump = `priv\tpub\t51820\toff\n${PEER_KEY}\t(none)\t192.0.2.1:51820\t10.77.0.2/32\t1763978400\t92\t148\t25\n`;
    const shaken = await wgo(["--json", "up", "--network", "net_1", "--name", "laptop", "--wait-handshake", "1"]);
    expect(shaken.code, shaken.stdout).toBe(0);
    expect(shaken.json[0].handshake).toEqual({ peer: PEER_KEY, seconds: 0 });
  });

  it("TLS: an https:// URL for a plain http server, and a certificate this machine does not trust", async () => {
    const { home, remove } = tempHome();
    stop.push(remove);
    const plain = createHttpServer((_request, response) => response.end("{}"));
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    stop.push(() => new Promise((resolve) => plain.close(resolve)));
    const wrong = await runWgo([
      "--api",
      `https://127.0.0.1:${(plain.address() as AddressInfo).port}`,
      "--home",
      home,
      "--json",
      "login",
      "--email",
      "a@e.test",
      "--password",
      "pw",
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.json[0].error).toMatchObject({ code: "tls_error", hint: expect.stringContaining("the TLS connection failed") });

    const pems = selfSignedCertificate();
    if (!pems) return console.warn("!!! openssl is not installed: the untrusted-certificate half is not run !!!");
    const server = createHttpsServer(pems, (_request, response) => response.end("{}"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    stop.push(() => new Promise((resolve) => server.close(resolve)));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const untrusted = await runWgo(["--api", url, "--home", home, "login", "--email", "a@e.test", "--password", "pw"]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toMatch(
      new RegExp(
        `^error: cannot reach ${url}: DEPTH_ZERO_SELF_SIGNED_CERT; the TLS connection failed: the server's certificate is not trusted here`,
      ),
    );
  });

  it("no answer in time, and the other socket errors, say what to check", () => {
    const failure = cli.failures.describeFailure(new cli.errors.NetworkError("https://cp.example", "no answer within 30 s"));
    expect(cli.failures.errorLine(failure)).toBe(
      "error: cannot reach https://cp.example: no answer within 30 s; no answer: check the network path to the host (firewall, proxy, VPN) and that the URL is right",
    );
    expect(failure).toMatchObject({ exit: 1, code: "unreachable" });
    expect(cli.failures.describeFailure(new cli.errors.NetworkError("https://cp.example", "EHOSTUNREACH")).hint).toMatch(/^no answer: /);
  });
});

/** A throwaway self-signed certificate for 127.0.0.1, or null without openssl. */
function selfSignedCertificate(): { key: string; cert: string } | null {
  const dir = mkdtempSync(join(tmpdir(), "wgo-tls-"));
  try {
    const made = spawnSync(
      "openssl",
      ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"].concat([
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ]),
      { stdio: "ignore" },
    );
    if (made.error || made.status !== 0) return null;
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
