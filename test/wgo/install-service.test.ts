// `wgo install-service`: the unit it writes (absolute node and wgo paths, restart policy, no restart on a
// refused credential) and the systemctl calls, made against a fake `systemctl` that is alone on PATH, so
// the machine running the tests is never touched.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { runWgo, tempHome } from "./support/cli.ts";
import { enrolLaptop, startDeviceApi } from "./support/device-api.ts";

const WGO = fileURLToPath(new URL("../../cli/wgo.mjs", import.meta.url));

let stop: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of stop.reverse()) await step();
  stop = [];
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  stop.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A PATH holding only a `systemctl` that appends its arguments to a log. */
function fakeSystemctl(exitCode = 0) {
  const bin = tempDir("wgo-bin-");
  const log = join(bin, "calls.log");
  writeFileSync(join(bin, "systemctl"), `#!/bin/sh\necho "$*" >> ${log}\nexit ${exitCode}\n`);
  chmodSync(join(bin, "systemctl"), 0o755);
  return { env: { PATH: bin }, calls: () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []) };
}

async function enrolledHome() {
  const api = await startDeviceApi();
  const { home, remove } = tempHome();
  stop.push(() => api.close(), remove);
  await enrolLaptop(runWgo, api.url, home);
  return home;
}

describe("wgo install-service", () => {
  it("writes the device's unit with absolute paths, then daemon-reload and enable --now", async () => {
    const home = await enrolledHome();
    const units = tempDir("wgo-units-");
    const systemctl = fakeSystemctl();
    const result = await runWgo(["--home", home, "--json", "install-service", "--unit-dir", units], { env: systemctl.env });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const path = join(units, "wgo-device-laptop.service");
    expect(result.json[0]).toEqual({
      unit: "wgo-device-laptop.service",
      path,
      execStart: [process.execPath, WGO, "heartbeat", "--name", "laptop", "--apply"],
      enabled: true,
    });
    const unit = readFileSync(path, "utf8");
    expect(unit).toContain(`\nExecStartPre=${process.execPath} ${WGO} up --name laptop\n`);
    expect(unit).toContain(`\nExecStart=${process.execPath} ${WGO} heartbeat --name laptop --apply\n`);
    expect(unit).toContain(`\nEnvironment=WGO_HOME=${home}\n`);
    for (const line of ["Restart=always", "RestartSec=5", "RestartPreventExitStatus=3", "KillMode=process", "WantedBy=multi-user.target"]) {
      expect(unit).toContain(`\n${line}\n`);
    }
    expect(statSync(path).mode & 0o777).toBe(0o644);
    expect(systemctl.calls()).toEqual(["daemon-reload", "enable --now wgo-device-laptop.service"]);
  });

  it("--gateway: the agent's unit from the same source, with its state directory; --no-enable calls nothing", async () => {
    const units = tempDir("wgo-units-");
    const systemctl = fakeSystemctl();
    const result = await runWgo(["install-service", "--gateway", "--unit-dir", units, "--no-enable"], { env: systemctl.env });
    expect(result.code, result.stderr).toBe(0);
    const unit = readFileSync(join(units, "wgo-gateway.service"), "utf8");
    expect(unit).toContain(`\nExecStart=${process.execPath} ${WGO} gateway run\n`);
    expect(unit).toContain("\nEnvironment=WGO_GATEWAY_STATE=/var/lib/wgo-gateway\n");
    expect(unit).toContain("\nStateDirectory=wgo-gateway\nStateDirectoryMode=0700\n");
    expect(unit).toContain("\nRestartPreventExitStatus=3\n");
    expect(unit).toContain("\nAmbientCapabilities=CAP_NET_ADMIN CAP_NET_BIND_SERVICE\n");
    expect(systemctl.calls()).toEqual([]);

    const elsewhere = await runWgo(["install-service", "--gateway", "--state-dir", "/srv/gw", "--unit-dir", units, "--no-enable"]);
    expect(elsewhere.code).toBe(0);
    const custom = readFileSync(join(units, "wgo-gateway.service"), "utf8");
    expect(custom).toContain("\nEnvironment=WGO_GATEWAY_STATE=/srv/gw\n");
    expect(custom).not.toContain("StateDirectory=");
  });

  it("without systemctl: the unit is written and the message says what to do instead (exit 1)", async () => {
    const home = await enrolledHome();
    const units = tempDir("wgo-units-");
    const result = await runWgo(["--home", home, "install-service", "--unit-dir", units], { env: { PATH: tempDir("wgo-empty-") } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: systemctl is not on PATH: this machine does not run systemd\. .*wgo-device-laptop\.service is written; start `.* heartbeat --name laptop --apply` with this machine's service manager instead/,
    );
    expect(existsSync(join(units, "wgo-device-laptop.service"))).toBe(true);
  });

  it("escapes what systemd expands even in quotes: % everywhere (specifiers), $ in ExecStart (variables)", async () => {
    const units = await import(/* @vite-ignore */ `../../cli/${"systemd-units.mjs"}`);
    const unit: string = units.deviceUnit({
      node: "/opt/node%h/bin/node",
      wgo: "/opt/w $HOME/wgo.mjs",
      home: "/srv/100% $x",
      name: "laptop",
    });
    // Unescaped, systemd would run /opt/node/root/bin/node (%h is the home directory) and expand $HOME.
    expect(unit).toContain('\nExecStart=/opt/node%%h/bin/node "/opt/w $$HOME/wgo.mjs" heartbeat --name laptop --apply\n');
    // Environment= expands specifiers but takes $ literally.
    expect(unit).toContain('\nEnvironment="WGO_HOME=/srv/100%% $x"\n');
    const gateway: string = units.gatewayUnit({ node: "/usr/bin/node", wgo: "/opt/wgo.mjs", stateDir: "/srv/gw%i" });
    expect(gateway).toContain("\nEnvironment=WGO_GATEWAY_STATE=/srv/gw%%i\n");
  });

  it("a failing systemctl is reported; no device enrolled is a clear error before anything is written", async () => {
    const home = await enrolledHome();
    const units = tempDir("wgo-units-");
    const failing = fakeSystemctl(1);
    const result = await runWgo(["--home", home, "install-service", "--unit-dir", units], { env: failing.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: systemctl daemon-reload failed \(exit 1\)/);

    const empty = tempHome();
    stop.push(empty.remove);
    const none = await runWgo(["--home", empty.home, "install-service", "--unit-dir", units, "--no-enable"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^error: no device enrolled under .*: run `wgo up --network …` first/);
  });
});
