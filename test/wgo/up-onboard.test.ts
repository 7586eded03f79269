// `wgo up --network NAME_OR_ID`: a new machine onboarded in one command against the fake API and a
// simulated host (sign in, pick the network by name, enrol, config, interface up), and run again on the
// same machine, which reuses its device instead of enrolling a second one.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runWgo, tempHome } from "./support/cli.ts";
import { DEVICE_TOKEN, startDeviceApi } from "./support/device-api.ts";
import { envelope } from "./support/fake-api.ts";
import { fakeHost } from "./support/fake-system.ts";

const NOW = Date.parse("2026-11-24T10:00:00.000Z");
const NETWORKS = [
  { id: "net_1", groupId: "grp_1", name: "lab", cidr: "10.77.0.0/24", dnsDomain: "lab.internal" },
  { id: "net_2", groupId: "grp_1", name: "office", cidr: "10.78.0.0/24", dnsDomain: "office.internal" },
  { id: "net_3", groupId: "grp_1", name: "shared", cidr: "10.79.0.0/24", dnsDomain: "s1.internal" },
  { id: "net_4", groupId: "grp_2", name: "shared", cidr: "10.80.0.0/24", dnsDomain: "s2.internal" },
];

let stop: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of stop.reverse()) await step();
  stop = [];
});

async function setup() {
  const api = await startDeviceApi({
    "POST /auth/login": (request) =>
      request.body.password === "right"
        ? {
            status: 200,
            body: {
              accessToken: "access-1",
              refreshToken: "refresh-1",
              tokenType: "Bearer",
              expiresIn: 900,
              user: { email: "ada@e.test" },
            },
          }
        : { status: 401, body: envelope("unauthorized", "Invalid email or password") },
    "GET /networks": () => ({ status: 200, body: { items: NETWORKS, nextCursor: null } }),
  });
  const { home, remove } = tempHome();
  stop.push(() => api.close(), remove);
  const host = fakeHost();
  const wgo = (args: string[], stdin?: string) =>
    runWgo(["--api", api.url, "--home", home, "--json", ...args], { createSystem: host.createSystem, stdin, now: () => NOW });
  const calls = () => api.requests.map((r) => `${r.method} ${r.path}`);
  return { api, home, host, wgo, calls };
}

const ONBOARD = ["up", "--network", "lab", "--name", "laptop", "--email", "ada@e.test", "--password-stdin", "--method", "setconf"];

describe("wgo up --network (one-command onboarding)", () => {
  it("signs in from --password-stdin, finds the network by name, enrols with the session, writes the config and brings the interface up", async () => {
    const { api, home, host, wgo, calls } = await setup();
    const result = await wgo(ONBOARD, "right\n");
    expect(result.code, result.stdout + result.stderr).toBe(0);
    // Last, one heartbeat: the console shows the device as seen, at the revision it runs (not "never").
    expect(calls()).toEqual(["POST /auth/login", "GET /networks", "POST /client/devices", "POST /client/devices/dev_1/heartbeat"]);
    expect(api.state.heartbeats).toEqual([expect.objectContaining({ appliedRevision: 3 })]);
    expect(api.requests[0]!.body).toEqual({ email: "ada@e.test", password: "right" });
    expect(api.requests[2]).toMatchObject({ token: "access-1", body: { name: "laptop", networkId: "net_1" } });
    expect(result.json).toEqual([
      expect.objectContaining({
        name: "laptop",
        api: api.url,
        networkId: "net_1",
        networkName: "lab",
        deviceId: "dev_1",
        signedIn: "login",
        enrolled: "new",
        interface: "wg0",
        method: "setconf",
        action: "created",
        appliedRevision: 3,
        addresses: ["10.77.0.1/24"],
        reported: true,
      }),
    ]);
    const device = JSON.parse(readFileSync(join(home, "devices", "laptop.json"), "utf8"));
    expect(device).toMatchObject({ networkId: "net_1", networkName: "lab", deviceToken: DEVICE_TOKEN, appliedRevision: 3 });
    const privateKey = readFileSync(join(home, "devices", "laptop.key"), "utf8").trim();
    expect(host.links.get("wg0")).toMatchObject({ up: true, addresses: ["10.77.0.1/24"] });
    expect(host.links.get("wg0")!.conf).toContain(`PrivateKey = ${privateKey}`);
  });

  it("run again on the enrolled machine: no second enrolment, no sign-in, the config fetched fresh and re-applied", async () => {
    const { api, wgo, calls } = await setup();
    expect((await wgo(ONBOARD, "right\n")).code).toBe(0);
    api.state.revision = 5;
    const before = api.requests.length;
    const again = await wgo(ONBOARD, "right\n");
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(calls().slice(before)).toEqual(["POST /client/devices/dev_1/config", "POST /client/devices/dev_1/heartbeat"]);
    expect(again.json[0]).toMatchObject({ enrolled: "existing", signedIn: null, action: "synced", appliedRevision: 5 });

    // Without --name, by the network's id: the device already in that network is the one reused.
    const byId = await wgo(["up", "--network", "net_1"]);
    expect(byId.code, byId.stdout).toBe(0);
    expect(byId.json[0]).toMatchObject({ name: "laptop", enrolled: "existing" });
    expect(calls().filter((call) => call === "POST /client/devices")).toHaveLength(1);
  });

  it("a device of another network is refused with the way out, before anything is sent", async () => {
    const { api, wgo, calls } = await setup();
    await wgo(ONBOARD, "right\n");
    const count = api.requests.length;
    const other = await wgo(["up", "--network", "net_2", "--name", "laptop"]);
    expect(other.code).toBe(1);
    expect(other.json).toEqual([
      {
        error: {
          code: "enrolled_elsewhere",
          message: expect.stringMatching(
            /^device "laptop" is enrolled in network lab \(net_1\), not "net_2": give another --name \(or none: wgo names this machine's device there after the host and the network\) to enrol it there too, or `wgo down --name laptop` and remove .*\/devices\/laptop\.\* to move it$/,
          ),
        },
      },
    ]);
    expect(calls()).toHaveLength(count);
  });

  it("another API for the same device name is refused", async () => {
    const { home, wgo } = await setup();
    await wgo(ONBOARD, "right\n");
    const result = await runWgo(["--api", "http://127.0.0.1:9", "--home", home, "up", "--network", "lab", "--name", "laptop"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: device "laptop" is enrolled with http:\/\/127\.0\.0\.1:\d+, not http:\/\/127\.0\.0\.1:9: give another --name/,
    );
  });

  it("an unknown name lists the networks to choose from; an ambiguous one lists its ids; nothing is enrolled", async () => {
    const { home, wgo, calls } = await setup();
    const unknown = await wgo(["up", "--network", "lob", "--name", "laptop", "--email", "ada@e.test", "--password-stdin"], "right\n");
    expect(unknown.code).toBe(1);
    expect(unknown.json[0].error).toEqual({
      code: "unknown_network",
      message:
        'no network "lob" among the 4 this account can see: lab (net_1, group grp_1), office (net_2, group grp_1), ' +
        "shared (net_3, group grp_1), shared (net_4, group grp_2)",
    });
    const ambiguous = await wgo(["up", "--network", "shared", "--name", "laptop"]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.json[0].error.message).toBe(
      '"shared" names 2 networks you can see: shared (net_3, group grp_1), shared (net_4, group grp_2); pass one\'s id as --network',
    );
    expect(calls()).not.toContain("POST /client/devices");
    expect(existsSync(join(home, "devices", "laptop.key"))).toBe(false);
  });

  it("without a session or --email, says how to sign in (usage error, exit 2), as JSON with --json", async () => {
    const { wgo, calls } = await setup();
    const result = await wgo(["up", "--network", "lab", "--name", "laptop"]);
    expect(result.code).toBe(2);
    expect(result.json[0].error).toMatchObject({
      code: "usage_error",
      message: expect.stringMatching(/^not signed in to http:\/\/127\.0\.0\.1:\d+: give --email EMAIL .* or --enrolment-key KEY$/),
      usage: expect.stringContaining("wgo up --api URL --network NAME_OR_ID"),
    });
    expect(calls()).toEqual([]);
  });

  it("a wrong password is the API's 401 with a plain hint; --json mirrors the envelope, nothing on stderr", async () => {
    const { api, wgo } = await setup();
    const result = await wgo(ONBOARD, "wrong\n");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    expect(result.json).toEqual([
      {
        error: {
          code: "unauthorized",
          status: 401,
          message: "Invalid email or password",
          hint: `the email or password is wrong for ${api.url}: check both (and that the account exists there)`,
        },
      },
    ]);
  });

  it("with --enrolment-key: no sign-in and no user token, the key decides the network", async () => {
    const { api, wgo } = await setup();
    const result = await wgo(["up", "--enrolment-key", "ek_1", "--name", "server-1", "--method", "setconf"]);
    expect(result.code, result.stdout).toBe(0);
    expect(api.requests.map((r) => [r.path, r.token, r.body?.enrolmentKey])).toEqual([
      ["/client/devices", null, "ek_1"],
      ["/client/devices/dev_1/heartbeat", DEVICE_TOKEN, undefined],
    ]);
    expect(result.json[0]).toMatchObject({ name: "server-1", signedIn: "enrolment-key", enrolled: "new", action: "created" });
    // The network by the name the console shows, without a session: the key decides, the name is kept here.
    const named = await wgo(["up", "--enrolment-key", "ek_1", "--network", "lab", "--name", "server-2", "--method", "setconf"]);
    expect(named.code, named.stdout).toBe(0);
    expect(api.requests.at(-2)).toMatchObject({ path: "/client/devices", token: null, body: { enrolmentKey: "ek_1" } });
    expect(api.requests.at(-2)!.body.networkId).toBeUndefined();
    expect(named.stderr).toContain(
      'note: the enrolment key decides the network; "lab" is kept as its name on this machine (not checked: no session)\n',
    );
    expect(named.json[0]).toMatchObject({ name: "server-2", networkName: "lab", signedIn: "enrolment-key", enrolled: "new" });
  });
});
