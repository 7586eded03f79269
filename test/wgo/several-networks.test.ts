// One machine in several networks (issue 47): `wgo up --network lab` then `--network office` makes two devices
// in one home, each with its own files and interface, both named after this host in their networks; `wgo status`
// lists both, `wgo install-service` writes a unit for each, and `wgo up --service` installs the one it brought up.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli, runWgo } from "./support/cli.ts";
import { nodeConfig } from "./support/config-diff.ts";
import { signedInHome } from "./support/signed-in.ts";
import type { FakeRequest } from "./support/fake-api.ts";
import { fakeHost } from "./support/fake-system.ts";

const NOW = Date.parse("2026-12-02T10:00:00.000Z");
const NETWORKS = [
  { id: "net_1", groupId: "grp_1", name: "lab", cidr: "10.77.0.0/24", dnsDomain: "lab.internal" },
  { id: "net_2", groupId: "grp_1", name: "office", cidr: "10.78.0.0/24", dnsDomain: "office.internal" },
];

/** Each network's one config for this machine's node: the network's .1 address, no peers. */
const configOf = (index: number) =>
  nodeConfig({
    nodeId: `node_${index + 1}`,
    networkId: NETWORKS[index]!.id,
    routingRevision: 3,
    interface: { address: `10.${77 + index}.0.1/24`, listenPort: null, dns: [], dnsSearch: [] },
    peers: [],
    routingIntent: [],
    forwarding: false,
  });

const HOST: string = cli.deviceNames.hostLabel();

let stop: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of stop.reverse()) await step();
  stop = [];
});

async function setup() {
  const device = (request: FakeRequest) => Number(/^\/client\/devices\/dev_(\d)/.exec(request.path)?.[1]) - 1;
  const session = await signedInHome(
    {
      "GET /networks": () => ({ status: 200, body: { items: NETWORKS, nextCursor: null } }),
      "POST /client/devices": (request) => {
        const index = NETWORKS.findIndex((network) => network.id === request.body.networkId);
        const id = `dev_${index + 1}`;
        return {
          status: 201,
          body: {
            device: { id, networkId: NETWORKS[index]!.id, nodeId: `node_${index + 1}`, name: request.body.name },
            node: { id: `node_${index + 1}` },
            config: configOf(index),
            deviceToken: `dvc_${id}`,
          },
        };
      },
      ...Object.fromEntries(
        [1, 2].flatMap((n) => [
          [
            `POST /client/devices/dev_${n}/config`,
            (request: FakeRequest) => ({ status: 200, body: { deviceId: `dev_${n}`, config: configOf(device(request)) } }),
          ],
          [`POST /client/devices/dev_${n}/heartbeat`, () => ({ status: 200, body: { desiredRevision: 3, configChanged: false } })],
        ]),
      ),
    },
    () => NOW,
  );
  stop.push(() => session.close());
  const host = fakeHost();
  const units = mkdtempSync(join(tmpdir(), "wgo-units-"));
  stop.push(() => rmSync(units, { recursive: true, force: true }));
  const systemctl = () => host.calls.filter((argv) => argv[0] === "systemctl").map((argv) => argv.slice(1).join(" "));
  const wgo = (args: string[]) =>
    runWgo(["--home", session.home, "--json", ...args], {
      createSystem: host.createSystem,
      now: () => NOW,
      env: { WGO_UNIT_DIR: units },
    });
  const file = (name: string) => JSON.parse(readFileSync(join(session.home, "devices", `${name}.json`), "utf8"));
  return { api: session.api, host, wgo, file, units, systemctl };
}

describe("one machine in several networks", () => {
  it("`up --network lab` then `--network office`: two devices, two interfaces, the host's name in both networks", async () => {
    const { api, host, wgo, file } = await setup();
    const lab = await wgo(["up", "--network", "lab", "--method", "setconf"]);
    expect(lab.code, lab.stdout).toBe(0);
    const office = await wgo(["up", "--network", "office", "--method", "setconf"]);
    expect(office.code, office.stdout).toBe(0);

    const enrolments = api.requests.filter((r) => r.path === "/client/devices").map((r) => r.body);
    expect(enrolments.map((body) => [body.name, body.networkId])).toEqual([
      [HOST, "net_1"],
      [HOST, "net_2"],
    ]);
    // wg0 and wg1 on a machine where no other WireGuard runs: never the same interface.
    const [labIf, officeIf] = [lab.json[0].interface, office.json[0].interface];
    expect(labIf).toMatch(/^wg\d+$/);
    expect(officeIf).toMatch(/^wg\d+$/);
    expect(officeIf).not.toBe(labIf);
    expect(lab.json[0]).toMatchObject({ name: HOST, networkName: "lab", enrolled: "new" });
    expect(office.json[0]).toMatchObject({ name: `${HOST}-office`, networkName: "office", enrolled: "new" });
    expect(file(HOST)).toMatchObject({ networkId: "net_1", interface: labIf, deviceToken: "dvc_dev_1" });
    expect(file(HOST).nodeName).toBeUndefined();
    expect(file(`${HOST}-office`)).toMatchObject({ networkId: "net_2", interface: officeIf, nodeName: HOST, deviceToken: "dvc_dev_2" });
    expect(host.links.get(labIf)).toMatchObject({ up: true, addresses: ["10.77.0.1/24"] });
    expect(host.links.get(officeIf)).toMatchObject({ up: true, addresses: ["10.78.0.1/24"] });

    // Each again: the device already in that network is reused, nothing enrolled.
    for (const network of ["lab", "office"]) expect((await wgo(["up", "--network", network])).json[0].enrolled).toBe("existing");
    expect(api.requests.filter((r) => r.path === "/client/devices")).toHaveLength(2);

    const status = await wgo(["status"]);
    expect(
      status.json.map((s: { name: string; networkName: string; interface: { name: string; up: boolean } }) => [
        s.name,
        s.networkName,
        s.interface.name,
        s.interface.up,
      ]),
    ).toEqual([
      [HOST, "lab", labIf, true],
      [`${HOST}-office`, "office", officeIf, true],
    ]);
  });

  it("`install-service` writes and starts a unit for every device; `up --service` the one it brought up", async () => {
    const { wgo, units, systemctl } = await setup();
    const lab = await wgo(["up", "--network", "lab", "--method", "setconf", "--service"]);
    expect(lab.code, lab.stdout).toBe(0);
    expect(lab.json[1]).toMatchObject({
      unit: `wgo-device-${HOST}.service`,
      path: join(units, `wgo-device-${HOST}.service`),
      enabled: true,
    });
    expect(systemctl()).toEqual(["daemon-reload", `enable --now wgo-device-${HOST}.service`]);
    await wgo(["up", "--network", "office", "--method", "setconf"]);

    const all = await wgo(["install-service"]);
    expect(all.code, all.stdout).toBe(0);
    expect(all.json.map((unit: { unit: string }) => unit.unit)).toEqual([
      `wgo-device-${HOST}.service`,
      `wgo-device-${HOST}-office.service`,
    ]);
    const office = readFileSync(join(units, `wgo-device-${HOST}-office.service`), "utf8");
    expect(office).toMatch(new RegExp(`\\nExecStart=\\S+ \\S+ heartbeat --name ${HOST}-office --apply\\n`));
    expect(systemctl().slice(2)).toEqual([
      "daemon-reload",
      `enable --now wgo-device-${HOST}.service`,
      "daemon-reload",
      `enable --now wgo-device-${HOST}-office.service`,
    ]);
  });

  it("gives each new device the lowest wgN no other device of the home uses, nor a wireguard-go of the machine", () => {
    const home = mkdtempSync(join(tmpdir(), "wgo-names-"));
    stop.push(() => rmSync(home, { recursive: true, force: true }));
    const names: { freeInterface: (home: string, runDir: string) => string; secondName: (host: string, network: string) => string } =
      cli.deviceNames;
    const runDir = join(home, "run-wireguard"); // stands for /run/wireguard: a userspace WireGuard's socket per interface
    expect(names.freeInterface(home, runDir)).toBe("wg0");
    for (const [name, ifname] of [
      ["a", "wg0"],
      ["b", "wg2"],
    ]) {
      cli.files.writeSecretJson(join(home, "devices", `${name}.json`), { name, interface: ifname });
    }
    expect(names.freeInterface(home, runDir)).toBe("wg1");
    cli.files.writeSecretFile(join(runDir, "wg1.sock"), ""); // another program's wireguard-go runs wg1
    expect(names.freeInterface(home, runDir)).toBe("wg3");
    expect(names.secondName("laptop", "Office LAN")).toBe("laptop-office-lan");
    expect(names.secondName("laptop", "net_7f3a")).toBe("laptop-net-7f3a");
  });
});
