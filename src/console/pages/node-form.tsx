import type { Schema } from "../../../client/index.ts";
import { errorsAt, type FormError } from "../form";
import type { FieldMap } from "../humanize";
import { CsrfField, FieldError, invalidAttrs } from "../layout";
import type { GatewayChoice } from "../routes/gateway-choices";
import { RELAY_HINT } from "./node-roles";

/** Adding a node: a peer (its public key), or a gateway node on an inventory gateway (key from its agent). */
export interface AddNodeProps {
  csrfToken: string;
  network: Pick<Schema<"Network">, "id" | "dnsDomain">;
  /** The gateways this network's group may use (all of them for a platform admin: see gateway-choices.ts). */
  gateways: GatewayChoice[];
  platformAdmin: boolean;
  values?: Record<string, string>;
  error?: FormError;
}

/** The add-node form's fields by the API's paths: a refusal is shown beside the field it names. */
export const NODE_FIELDS: FieldMap = {
  name: { label: "Name", field: "node-name" },
  publicKey: { label: "Public key", field: "publicKey" },
  address: { label: "Address", field: "address" },
  endpoint: { label: "Endpoint", field: "endpoint" },
  listenPort: { label: "Listen port", field: "listenPort" },
  gatewayId: { label: "Inventory gateway", field: "gatewayId" },
  roles: { label: "Gateway role", field: "gateway" },
  servesDns: { label: "Serves the network's DNS zone", field: "servesDns" },
  relay: { label: "Relay", field: "relay" },
};

export function AddNodeForm({ csrfToken, network, gateways, platformAdmin, values = {}, error }: AddNodeProps) {
  const at = (field: string) => errorsAt(error, field);
  return (
    <section aria-labelledby="add-node">
      <h2 id="add-node">Add a node</h2>
      <form method="post" action={`/networks/${network.id}/nodes`} class="card">
        <CsrfField token={csrfToken} />
        <label for="node-name">Name</label>
        <input
          id="node-name"
          name="name"
          required
          value={values.name ?? ""}
          {...invalidAttrs("node-name", at("node-name"), "node-name-help")}
        />
        <p id="node-name-help" class="help">
          Also its DNS name: name.{network.dnsDomain}
        </p>
        <FieldError field="node-name" messages={at("node-name")} />
        <label for="publicKey">Public key</label>
        <input id="publicKey" name="publicKey" value={values.publicKey ?? ""} {...invalidAttrs("publicKey", at("publicKey"), "key-help")} />
        <p id="key-help" class="help">
          The node's WireGuard public key (base64). A gateway node may leave it empty: its agent registers it.
        </p>
        <FieldError field="publicKey" messages={at("publicKey")} />
        <label for="address">Address (optional)</label>
        <input
          id="address"
          name="address"
          value={values.address ?? ""}
          placeholder="allocated when empty"
          {...invalidAttrs("address", at("address"))}
        />
        <FieldError field="address" messages={at("address")} />
        <label for="endpoint">Endpoint (optional)</label>
        <input
          id="endpoint"
          name="endpoint"
          value={values.endpoint ?? ""}
          placeholder="gw1.example.net:51820"
          {...invalidAttrs("endpoint", at("endpoint"))}
        />
        <FieldError field="endpoint" messages={at("endpoint")} />
        <label for="listenPort">Listen port (optional)</label>
        <input
          id="listenPort"
          name="listenPort"
          inputmode="numeric"
          value={values.listenPort ?? ""}
          {...invalidAttrs("listenPort", at("listenPort"))}
        />
        <FieldError field="listenPort" messages={at("listenPort")} />
        <fieldset>
          <legend>Gateway role</legend>
          <div>
            <input type="checkbox" id="gateway" name="gateway" value="on" checked={values.gateway === "on"} />
            <label for="gateway">This node is a gateway (forwards traffic for routing policies)</label>
          </div>
          <div>
            <label for="gatewayId">Inventory gateway (gateway nodes)</label>
            <select id="gatewayId" name="gatewayId" {...invalidAttrs("gatewayId", at("gatewayId"), "gatewayId-help")}>
              <option value="">{gateways.length === 0 ? "No gateway available yet" : "Choose a gateway"}</option>
              {gateways.map(({ gateway, assigned }) => (
                <option value={gateway.id} selected={values.gatewayId === gateway.id}>
                  {gateway.name} ({gateway.status}, {gateway.health}){assigned ? "" : " (assigned to the group on create)"}
                </option>
              ))}
            </select>
            <GatewayHelp network={network} gateways={gateways} platformAdmin={platformAdmin} />
            <FieldError field="gatewayId" messages={at("gatewayId")} />
          </div>
          <div>
            <input type="checkbox" id="servesDns" name="servesDns" value="on" checked={values.servesDns === "on"} />
            <label for="servesDns">Serves the network's DNS zone</label>
          </div>
          <div>
            <input
              type="checkbox"
              id="relay"
              name="relay"
              value="on"
              checked={values.relay === "on"}
              {...invalidAttrs("relay", at("relay"), "relay-help")}
            />
            <label for="relay">Relay</label>
            <p id="relay-help" class="help">
              {RELAY_HINT}.
            </p>
            <FieldError field="relay" messages={at("relay")} />
          </div>
        </fieldset>
        <button type="submit">Add node</button>
      </form>
    </section>
  );
}

/** Where the gateways come from, and how to get one when there is none: never a form that cannot succeed. */
function GatewayHelp({ network, gateways, platformAdmin }: Pick<AddNodeProps, "network" | "gateways" | "platformAdmin">) {
  const inventory = `/admin/inventory?back=${encodeURIComponent(`/networks/${network.id}/nodes`)}`;
  if (!platformAdmin)
    return (
      <p id="gatewayId-help" class="help">
        {gateways.length === 0
          ? "No inventory gateway is assigned to this network's group yet. Ask a platform admin to assign one (or a region) to the group."
          : "The gateways assigned to this network's group. A platform admin assigns more."}
      </p>
    );
  return (
    <p id="gatewayId-help" class="help">
      {gateways.length === 0
        ? "The inventory has no gateway yet. "
        : "Every inventory gateway: one not yet assigned to this network's group is assigned to it when you add the node (you are a platform admin). "}
      <a href={inventory}>{gateways.length === 0 ? "Add a gateway to the inventory" : "Add another gateway to the inventory"}</a>, then come
      back here.
    </p>
  );
}
