// Which way the device's packets went, from wireguard-go's own counters: the device's peers, and the bytes
// between two gateway nodes' interfaces (named by `wgo gateway run` after the node, chain-network.ts).
import { run } from "../support/command.ts";
import { expectAnswer, login, typedApi } from "../support/api-client.ts";
import type { WorkerServer } from "../support/worker-server.ts";
import { agentInterface } from "../gateway/chain-network.ts";

interface KeyedNode {
  id: string;
  publicKey: string | null;
}

/** An interface's peers, a line each after the interface's own (`wg show IF dump`; the socket is in the real /run/wireguard). */
async function peerLines(ifname: string): Promise<string[][]> {
  return (await run(["wg", "show", ifname, "dump"])).stdout
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => line.split("\t"));
}

/** The public keys of an interface's peers. */
export async function peerKeys(ifname: string): Promise<string[]> {
  return (await peerLines(ifname)).map((fields) => fields[0] ?? "");
}

async function peerBytes(ifname: string, peerKey: string | null): Promise<{ rx: number; tx: number }> {
  const fields = (await peerLines(ifname)).find((line) => line[0] === peerKey);
  return { rx: Number(fields?.[5] ?? 0), tx: Number(fields?.[6] ?? 0) };
}

/** Bytes `a` sent to `b`, and `b` received from and sent to `a`, each on its own interface. */
export async function hopBytes(a: KeyedNode, b: KeyedNode) {
  const [aSide, bSide] = [await peerBytes(agentInterface(a.id), b.publicKey), await peerBytes(agentInterface(b.id), a.publicKey)];
  return { aToB: aSide.tx, bFromA: bSide.rx, bToA: bSide.tx };
}

/** The nodes named `names`, as the API lists them (ids and keys for the counters, never typed in the console). */
export async function nodesNamed(server: WorkerServer, names: string[]) {
  const admin = typedApi(server.baseUrl, await login(server.baseUrl, server.admin));
  const nodes = expectAnswer(await admin.GET("/api/v1/nodes", { params: { query: { limit: 200 } } }), 200, "nodes").items;
  return names.map((name) => {
    const node = nodes.find((entry) => entry.name === name);
    if (!node) throw new Error(`no node ${name} among ${nodes.map((entry) => entry.name).join(", ")}`);
    return node;
  });
}
