// `wgo version` (issue 47): this wgo's version against the one its control plane serves; a note with the
// install command when the server's is newer; an older server (no /version) or none at all is not an error.
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { cli, runWgo, tempHome } from "./support/cli.ts";
import { envelope, type FakeApi, startFakeApi } from "./support/fake-api.ts";

const { VERSION } = cli.version;
const { compareVersions } = cli.versionCommand;

let api: FakeApi | undefined;
const { home, remove } = tempHome();
afterEach(async () => {
  await api?.close();
  api = undefined;
});
afterAll(() => remove());

const served = (wgo: string | null) => ({
  "GET /version": () => ({
    status: 200,
    body: { version: wgo ?? VERSION, wgo: wgo ? { version: wgo, url: `/api/v1/wgo/wgo-${wgo}.tgz` } : null },
  }),
});

describe("wgo version", () => {
  it("says when the server serves a newer wgo, and how to install it", async () => {
    api = await startFakeApi(served("99.0.0"));
    const result = await runWgo(["--api", api.url, "--home", home, "--json", "version"]);
    expect(result.code).toBe(0);
    const update = `curl -fsSL ${api.url}/api/v1/install.sh | sudo sh`;
    expect(result.json).toEqual([{ wgo: VERSION, api: api.url, server: "99.0.0", serverWgo: "99.0.0", newer: true, update }]);
    expect(result.stderr).toBe(`note: ${api.url} serves wgo 99.0.0, newer than this wgo ${VERSION}: update with \`${update}\`\n`);
  });

  it("the same version: no note; an older server without /version, or none reachable: this wgo's version, a note", async () => {
    api = await startFakeApi(served(VERSION));
    const same = await runWgo(["--api", api.url, "--home", home, "version"]);
    expect([same.code, same.stderr, same.stdout]).toEqual([
      0,
      "",
      `wgo ${VERSION}; ${api.url} runs ${VERSION} and serves wgo ${VERSION}\n`,
    ]);
    await api.close();
    api = await startFakeApi({ "GET /version": () => ({ status: 404, body: envelope("not_found", "No route") }) });
    const old = await runWgo(["--api", api.url, "--home", home, "--json", "version"]);
    expect(old.code).toBe(0);
    expect(old.json[0]).toMatchObject({ wgo: VERSION, server: null, newer: false });
    expect(old.stderr).toMatch(/^note: the control plane's version is unknown/);
  });

  it("compares dotted versions part by part", () => {
    expect([compareVersions("0.10.0", "0.9.9"), compareVersions("1.0", "1.0.0"), compareVersions("0.1.0", "0.2.0")]).toEqual([1, 0, -1]);
  });
});
