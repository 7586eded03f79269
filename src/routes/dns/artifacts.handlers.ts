import type { Context } from "hono";
import { userOf } from "../../lib/principal";
import type { AppEnv, AppRouteHandler } from "../../lib/types";
import { authorizeNetwork } from "../../services/authorization";
import { matchesEtag, renderDnsArtifact, type DnsArtifact } from "../../services/networks/views/dns-artifacts";
import type * as routes from "./dns.routes";

async function serve(c: Context<AppEnv>, networkId: string, kind: DnsArtifact) {
  const { network } = await authorizeNetwork(c.var.db, userOf(c), networkId, "read");
  const { text, etag } = await renderDnsArtifact(c.var.db, network, kind);
  c.header("ETag", etag);
  c.header("Cache-Control", "no-cache");
  if (matchesEtag(c.req.header("if-none-match"), etag)) return c.body(null, 304);
  return c.text(text, 200);
}

export const corefile: AppRouteHandler<typeof routes.corefile> = (c) => serve(c, c.req.valid("param").id, "corefile");
export const zonefile: AppRouteHandler<typeof routes.zonefile> = (c) => serve(c, c.req.valid("param").id, "zonefile");
