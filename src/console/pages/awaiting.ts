import type { Schema } from "../../../client/index.ts";

/** Gateway nodes whose agent has not registered their key: other nodes' configs leave them out until it does. */
export const awaitingAgent = (nodes: Pick<Schema<"Node">, "name" | "roles" | "publicKey">[]) =>
  nodes.filter((node) => node.roles.includes("gateway") && !node.publicKey).map((node) => node.name);
