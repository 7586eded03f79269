import { describe, expect, it } from "vitest";
import { call, del, get, patch, post } from "../helpers/api";
import { createGateway, createNode, enrolDevice, networkSetup } from "../helpers/factories";

describe("node configs name the network's DNS servers", () => {
  it("lists gateway nodes that serve DNS (with a key) by address, at most 3, with the search domain; a delta carries the change", async () => {
    const { admin, network } = await networkSetup({ cidr: "10.93.0.0/24" });
    const domain = network.dnsDomain;
    const laptop = await enrolDevice(admin, { networkId: network.id });
    // Addresses whose text order differs from their numeric order: .10 < .100 as text, .9 > .10.
    const gateways = [];
    for (const address of ["10.93.0.100", "10.93.0.10", "10.93.0.9", "10.93.0.200"]) {
      gateways.push(await createNode(admin, network.id, { gatewayId: (await createGateway(admin)).id, address }));
    }
    const deviceConfig = (sinceRevision?: number) =>
      call("POST", `/client/devices/${laptop.deviceId}/config`, {
        token: laptop.deviceToken,
        body: sinceRevision === undefined ? {} : { sinceRevision },
      });

    const plain = (await deviceConfig()).body.config;
    expect(plain.interface).toMatchObject({ dns: [], dnsSearch: [] });
    expect(plain.wgQuick).not.toContain("DNS =");

    for (const gateway of gateways.slice(0, 3)) {
      const served = await patch(`/nodes/${gateway.id}`, { servesDns: true }, admin.token);
      expect(served.status, served.text).toBe(200);
      expect(served.body.servesDns).toBe(true);
    }
    const three = (await deviceConfig()).body.config;
    expect(three.interface).toMatchObject({ dns: ["10.93.0.9", "10.93.0.10", "10.93.0.100"], dnsSearch: [domain] });
    expect(three.wgQuick).toContain(`DNS = 10.93.0.9, 10.93.0.10, 10.93.0.100, ${domain}\n`);

    // A fourth server with a lower address than the last: still three, the lowest ones.
    await patch(`/nodes/${gateways[3]!.id}`, { address: "10.93.0.2" }, admin.token);
    expect((await patch(`/nodes/${gateways[3]!.id}`, { servesDns: true }, admin.token)).status).toBe(200);
    const delta = (await deviceConfig(three.routingRevision)).body.delta;
    expect(delta.interface).toMatchObject({ dns: ["10.93.0.2", "10.93.0.9", "10.93.0.10"], dnsSearch: [domain] });

    // Gateways' own configs name the servers too (the writer's one topology serves every config).
    const gatewayConfig = (await get(`/nodes/${gateways[0]!.id}/config`, admin.token)).body;
    expect(gatewayConfig.interface.dns).toEqual(["10.93.0.2", "10.93.0.9", "10.93.0.10"]);
    const wgQuick = (await call("GET", `/nodes/${laptop.nodeId}/config`, { token: admin.token, headers: { Accept: "text/plain" } })).text;
    expect(wgQuick).toContain(`DNS = 10.93.0.2, 10.93.0.9, 10.93.0.10, ${domain}\n`);

    // A new domain reaches every config as a new routing revision.
    const before = (await get(`/networks/${network.id}`, admin.token)).body.routingRevision;
    const renamed = await patch(`/networks/${network.id}`, { dnsDomain: "corp.example" }, admin.token);
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.routingRevision).toBe(before + 1);
    const after = (await deviceConfig(before)).body.delta;
    expect(after.interface.dnsSearch).toEqual(["corp.example"]);
    expect((await deviceConfig()).body.config.wgQuick).toContain("DNS = 10.93.0.2, 10.93.0.9, 10.93.0.10, corp.example\n");

    // A server that stops being a gateway, or goes, leaves every config at a new revision; the next lowest
    // takes its place. A gateway node that serves DNS but has no key yet is unreachable: never listed.
    const keyless = await post(
      "/nodes",
      {
        networkId: network.id,
        name: "awaiting",
        roles: ["gateway"],
        gatewayId: (await createGateway(admin)).id,
        address: "10.93.0.3",
        servesDns: true,
      },
      admin.token,
    );
    expect(keyless.status, keyless.text).toBe(201);
    const demoted = await patch(`/nodes/${gateways[3]!.id}`, { roles: [] }, admin.token);
    expect(demoted.status, demoted.text).toBe(200);
    expect(demoted.body.servesDns).toBe(false);
    const afterDemotion = (await deviceConfig()).body.config;
    expect(afterDemotion.routingRevision).toBe(demoted.body.revision);
    expect(afterDemotion.interface.dns).toEqual(["10.93.0.9", "10.93.0.10", "10.93.0.100"]);
    expect((await del(`/nodes/${gateways[2]!.id}`, admin.token)).status).toBe(204);
    expect((await deviceConfig()).body.config.interface.dns).toEqual(["10.93.0.10", "10.93.0.100"]);
  });
});
