// How the console words a node's roles, on the nodes table, the node page and the add-node form.
import type { Schema } from "../../../client/index.ts";

/** A node's roles for a person: gateway, relay, DNS server; or peer. */
export const rolesOf = (node: Pick<Schema<"Node">, "roles" | "relay" | "servesDns">) =>
  [...node.roles, ...(node.relay ? ["relay"] : []), ...(node.servesDns ? ["DNS server"] : [])].join(", ") || "peer";

/** The hint beside a relay checkbox (docs/nat.md: a relay gateway carries the pairs NAT keeps apart). */
export const RELAY_HINT = "Carries traffic between nodes that cannot reach each other through NAT";
