// `wgo networks`: the networks the signed-in account can see, every page of GET /networks, with the ids
// `wgo enrol --network` takes; without a session it says how to get one.
import { afterEach, describe, expect, it } from "vitest";
import { runWgo, tempHome } from "./support/cli.ts";
import type { FakeApi } from "./support/fake-api.ts";
import { type SignedIn, signedInHome } from "./support/signed-in.ts";

const NOW = Date.parse("2026-11-24T10:00:00.000Z");
const network = (n: number) => ({
  id: `net_${n}`,
  groupId: "grp_1",
  name: `lab-${n}`,
  cidr: `10.${n}.0.0/24`,
  dnsDomain: `lab${n}.internal`,
});

let session: SignedIn | undefined;
let api: FakeApi | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await session?.close();
  session = undefined;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function signedIn() {
  session = await signedInHome(
    {
      "GET /networks": (request) =>
        request.query.get("cursor") === "page2"
          ? { status: 200, body: { items: [network(3)], nextCursor: null } }
          : { status: 200, body: { items: [network(1), network(2)], nextCursor: "page2" } },
    },
    () => NOW,
  );
  api = session.api;
  return session.home;
}

describe("wgo networks", () => {
  it("lists every page, with the user's token, one JSON object a network", async () => {
    const home = await signedIn();
    const result = await runWgo(["--home", home, "--json", "networks"], { now: () => NOW });
    expect(result.code, result.stderr).toBe(0);
    expect(result.json.map((line) => line.id)).toEqual(["net_1", "net_2", "net_3"]);
    expect(result.json[0]).toEqual({ id: "net_1", name: "lab-1", cidr: "10.1.0.0/24", dnsDomain: "lab1.internal", groupId: "grp_1" });
    const lists = api!.requests.filter((r) => r.path === "/networks");
    expect(lists.map((r) => [r.token, r.query.get("cursor")])).toEqual([
      ["access-1", null],
      ["access-1", "page2"],
    ]);
    const human = await runWgo(["--home", home, "networks"], { now: () => NOW });
    expect(human.stdout.split("\n")[0]).toBe("net_1  lab-1  10.1.0.0/24  lab1.internal");
  });

  it("without a session, says to log in (exit 1)", async () => {
    const made = tempHome();
    cleanups.push(made.remove);
    const result = await runWgo(["--home", made.home, "networks"], { now: () => NOW });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/wgo login/);
  });
});
