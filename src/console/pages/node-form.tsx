import type { Schema } from "../../../client/index.ts";
import { CsrfField } from "../layout";

/** Adding a node: a peer (its public key), or a gateway node on an inventory gateway (key from its agent). */
export interface AddNodeProps {
  csrfToken: string;
  network: Pick<Schema<"Network">, "id" | "dnsDomain">;
  gateways: Schema<"Gateway">[];
  values?: Record<string, string>;
}

export function AddNodeForm({ csrfToken, network, gateways, values = {} }: AddNodeProps) {
  return (
    <section aria-labelledby="add-node">
      <h2 id="add-node">Add a node</h2>
      <form method="post" action={`/networks/${network.id}/nodes`} class="card">
        <CsrfField token={csrfToken} />
        <label for="node-name">Name</label>
        <input id="node-name" name="name" required value={values.name ?? ""} aria-describedby="node-name-help" />
        <p id="node-name-help" class="help">
          Also its DNS name: name.{network.dnsDomain}
        </p>
        <label for="publicKey">Public key</label>
        <input id="publicKey" name="publicKey" value={values.publicKey ?? ""} aria-describedby="key-help" />
        <p id="key-help" class="help">
          The node's WireGuard public key (base64). A gateway node may leave it empty: its agent registers it.
        </p>
        <label for="address">Address (optional)</label>
        <input id="address" name="address" value={values.address ?? ""} placeholder="allocated when empty" />
        <label for="endpoint">Endpoint (optional)</label>
        <input id="endpoint" name="endpoint" value={values.endpoint ?? ""} placeholder="gw1.example.net:51820" />
        <label for="listenPort">Listen port (optional)</label>
        <input id="listenPort" name="listenPort" inputmode="numeric" value={values.listenPort ?? ""} />
        <fieldset>
          <legend>Gateway role</legend>
          <div>
            <input type="checkbox" id="gateway" name="gateway" value="on" checked={values.gateway === "on"} />
            <label for="gateway">This node is a gateway (forwards traffic for routing policies)</label>
          </div>
          <div>
            <label for="gatewayId">Inventory gateway</label>
            <select id="gatewayId" name="gatewayId">
              <option value="">None</option>
              {gateways.map((gateway) => (
                <option value={gateway.id} selected={values.gatewayId === gateway.id}>
                  {gateway.name} ({gateway.status}, {gateway.health})
                </option>
              ))}
            </select>
          </div>
          <div>
            <input type="checkbox" id="servesDns" name="servesDns" value="on" checked={values.servesDns === "on"} />
            <label for="servesDns">Serves the network's DNS zone</label>
          </div>
        </fieldset>
        <button type="submit">Add node</button>
      </form>
    </section>
  );
}
