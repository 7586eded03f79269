// Enrolment: the key pair is made here, only the public key travels, and every file is 0600 in
// directories wgo made 0700. Also `wgo config`, which rewrites the managed file from the server.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { envelope } from "./support/fake-api.ts";
import { cli, runWgo, tempHome } from "./support/cli.ts";
import { DEVICE_TOKEN, startDeviceApi } from "./support/device-api.ts";

let stop: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of stop.reverse()) await step();
  stop = [];
});

async function setup(routes = {}) {
  const api = await startDeviceApi(routes);
  const { home, remove } = tempHome();
  stop.push(() => api.close(), remove);
  return { api, home, file: (name: string) => join(home, "devices", name) };
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe("wgo enrol", () => {
  it("with an enrolment key: no user token, the public key of a key kept here, files 0600 in 0700 directories", async () => {
    const { api, home, file } = await setup();
    const result = await runWgo(["--api", api.url, "--home", home, "--json", "enrol", "--name", "laptop", "--enrolment-key", "ek_secret"]);
    expect(result.code).toBe(0);

    const [request] = api.requests;
    expect(request!.token).toBeNull();
    const privateKey = readFileSync(file("laptop.key"), "utf8").trim();
    expect(request!.body).toEqual({
      name: "laptop",
      publicKey: cli.keys.publicKeyOf(privateKey),
      platform: `${process.platform}-${process.arch}`,
      clientVersion: "wgo/0.1.0",
      enrolmentKey: "ek_secret",
    });
    expect(JSON.stringify(api.requests)).not.toContain(privateKey);

    for (const name of ["laptop.key", "laptop.json", "laptop.conf"]) expect(mode(file(name)), name).toBe(0o600);
    expect(mode(home)).toBe(0o700);
    expect(mode(join(home, "devices"))).toBe(0o700);
    expect(JSON.parse(readFileSync(file("laptop.json"), "utf8"))).toMatchObject({
      name: "laptop",
      api: api.url,
      deviceId: "dev_1",
      networkId: "net_1",
      nodeId: "node_1",
      deviceToken: DEVICE_TOKEN,
      interface: "wg0",
      configRevision: 3,
      appliedRevision: null,
    });
    const conf = readFileSync(file("laptop.conf"), "utf8");
    expect(conf).toContain(`PrivateKey = ${privateKey}\n`);
    expect(conf).not.toContain("REPLACE_WITH_PRIVATE_KEY");
    expect(result.json[0]).toMatchObject({ deviceId: "dev_1", publicKey: request!.body.publicKey, configRevision: 3 });
  });

  it("with the user session: sends networkId and the bearer token", async () => {
    const { api, home } = await setup({
      "POST /auth/login": () => ({
        status: 200,
        body: { accessToken: "access-1", refreshToken: "r", tokenType: "Bearer", expiresIn: 900 },
      }),
    });
    await runWgo(["--api", api.url, "--home", home, "login", "--email", "a@e.test", "--password", "pw"]);
    expect((await runWgo(["--home", home, "enrol", "--name", "laptop", "--network", "net_1"])).code).toBe(0);
    expect(api.requests[1]).toMatchObject({ path: "/client/devices", token: "access-1", body: { networkId: "net_1", name: "laptop" } });
  });

  it("keeps nothing when the server refuses, so the name can be used again", async () => {
    const { api, home, file } = await setup({
      "POST /client/devices": () => ({ status: 409, body: envelope("conflict", 'A node named "laptop" already exists in this network') }),
    });
    const result = await runWgo(["--api", api.url, "--home", home, "enrol", "--name", "laptop", "--enrolment-key", "ek_1"]);
    expect(result.stderr).toBe('error: 409 conflict: A node named "laptop" already exists in this network\n');
    expect(result.code).toBe(1);
    expect(existsSync(file("laptop.key"))).toBe(false);
    expect(existsSync(file("laptop.json"))).toBe(false);
  });

  it("refuses to enrol a second device of the same name (its key would be overwritten)", async () => {
    const { api, home, file } = await setup();
    const args = ["--api", api.url, "--home", home, "enrol", "--name", "laptop", "--enrolment-key", "ek_1"];
    await runWgo(args);
    const key = readFileSync(file("laptop.key"), "utf8");
    const again = await runWgo(args);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: a device named "laptop" is already enrolled in /);
    expect(readFileSync(file("laptop.key"), "utf8")).toBe(key);
    expect(api.requests).toHaveLength(1);
  });
});

describe("wgo config", () => {
  it("fetches with the device token, fills in the key, writes the managed file and --out (0600), remembers the revision", async () => {
    const { api, home, file } = await setup();
    await runWgo(["--api", api.url, "--home", home, "enrol", "--name", "laptop", "--enrolment-key", "ek_1"]);
    api.state.revision = 7;
    const out = join(home, "exported.conf");
    const result = await runWgo(["--home", home, "--json", "config", "--name", "laptop", "--out", out]);
    expect(result.code).toBe(0);
    expect(api.requests.at(-1)).toMatchObject({ path: "/client/devices/dev_1/config", token: DEVICE_TOKEN });
    const privateKey = readFileSync(file("laptop.key"), "utf8").trim();
    for (const path of [file("laptop.conf"), out]) {
      expect(readFileSync(path, "utf8")).toContain("routing revision 7");
      expect(readFileSync(path, "utf8")).toContain(`PrivateKey = ${privateKey}`);
      expect(mode(path)).toBe(0o600);
    }
    expect(JSON.parse(readFileSync(file("laptop.json"), "utf8")).configRevision).toBe(7);
    expect(result.json[0]).toMatchObject({ routingRevision: 7, appliedRevision: null, peers: 1 });
  });

  it("reports a device credential the server no longer accepts", async () => {
    const { api, home, file } = await setup();
    await runWgo(["--api", api.url, "--home", home, "enrol", "--name", "laptop", "--enrolment-key", "ek_1"]);
    const device = JSON.parse(readFileSync(file("laptop.json"), "utf8"));
    writeFileSync(file("laptop.json"), JSON.stringify({ ...device, deviceToken: "dvc_revoked" }));
    const result = await runWgo(["--home", home, "config", "--name", "laptop"]);
    expect(result.stderr).toBe(
      "error: 401 unauthorized: The device credential is not valid; the device credential was refused: the device was deleted or revoked; enrol this machine again\n",
    );
    expect(result.code).toBe(1);
  });

  it("explains an unknown device name", async () => {
    const { home } = await setup();
    const result = await runWgo(["--home", home, "config", "--name", "nope"]);
    expect(result.stderr).toBe(`error: no device "nope" in ${join(home, "devices")}: run \`wgo enrol --name nope\` first\n`);
    expect(result.code).toBe(1);
  });
});
