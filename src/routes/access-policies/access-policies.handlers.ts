import { fieldError } from "../../lib/errors";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { unwrap } from "../../lib/write-result";
import { auditOf } from "../../middleware/audit";
import { authorizeNetwork } from "../../services/authorization";
import { networkWriter } from "../../objects/network/client";
import { networkForWrite } from "../../services/networks/write-routing";
import type * as routes from "./access-policies.routes";

/** `If-Match: "3"` (or 3) → 3; absent → null. Anything else is a schema error on the header. */
function revisionOf(header: string | undefined): number | null {
  if (header === undefined) return null;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!match) throw fieldError("if-match", 'Expected the revision last read, quoted: "3"');
  return Number(match[1]);
}

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { network } = await authorizeNetwork(c.var.db, userOf(c), c.req.valid("param").id, "read");
  return c.json(await unwrap(networkWriter(c.env, network.id).readAccessPolicy(network.id)), 200);
};

/** The writer authorises the caller (objects/network/authority/write-authority.ts), session included, as it does policy writes (the userWrites guard). */
export const put: AppRouteHandler<typeof routes.put> = async (c) => {
  const ifMatch = revisionOf(c.req.valid("header")["if-match"]);
  const caller = userOf(c);
  const networkId = await networkForWrite(c.var.db, c.req.valid("param").id, caller);
  const written = networkWriter(c.env, networkId).putAccessPolicy(networkId, c.req.valid("json"), caller, ifMatch, auditOf(c, 200));
  return c.json(await unwrap(written), 200);
};

/**
 * Preview, access-check and access-sources evaluate the policy over the network's nodes and who owns them: a
 * `user:` or `role:` selector's answer says whose devices are whose, which readers below admin may not learn
 * (docs/security.md, "Device nodes": viewers see nodes, not owners). They are the group managers' tools (403
 * for members and viewers, 404 for strangers); the document itself stays readable by every reader.
 */
export const preview: AppRouteHandler<typeof routes.preview> = async (c) => {
  const { network } = await authorizeNetwork(c.var.db, userOf(c), c.req.valid("param").id, "manage");
  return c.json(await unwrap(networkWriter(c.env, network.id).previewAccessPolicy(network.id, c.req.valid("json"))), 200);
};

export const check: AppRouteHandler<typeof routes.check> = async (c) => {
  const { network } = await authorizeNetwork(c.var.db, userOf(c), c.req.valid("param").id, "manage");
  return c.json(await unwrap(networkWriter(c.env, network.id).checkAccess(network.id, c.req.valid("query"))), 200);
};

export const sources: AppRouteHandler<typeof routes.sources> = async (c) => {
  const { network } = await authorizeNetwork(c.var.db, userOf(c), c.req.valid("param").id, "manage");
  return c.json(await unwrap(networkWriter(c.env, network.id).accessSources(network.id, c.req.valid("query").dst)), 200);
};
