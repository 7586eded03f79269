import { Hono } from "hono";
import { need, onFailure } from "../failure";
import { AuditPage } from "../pages/audit";
import type { SignedInEnv } from "../types";
import { auditNames, eventOwners } from "./audit-names";

export const auditRoutes = new Hono<SignedInEnv>();
auditRoutes.onError(onFailure);

auditRoutes.get("/audit", async (c) => {
  const filters = {
    group: c.req.query("group") || undefined,
    network: c.req.query("network") || undefined,
    actor: c.req.query("actor")?.trim() || undefined,
  };
  const cursor = c.req.query("cursor") || undefined;
  const query = {
    limit: 50,
    order: "desc" as const,
    ...(filters.group ? { groupId: filters.group } : {}),
    ...(filters.network ? { networkId: filters.network } : {}),
    ...(filters.actor ? { actorId: filters.actor } : {}),
    ...(cursor ? { cursor } : {}),
  };
  const [events, groups, networks] = await Promise.all([
    c.var.api.GET("/api/v1/audit", { params: { query } }),
    c.var.api.GET("/api/v1/groups", { params: { query: { limit: 200 } } }),
    c.var.api.GET("/api/v1/networks", { params: { query: { limit: 200 } } }),
  ]);
  const page = need(events);
  const owners = await eventOwners(c, page.items, { groups: need(groups).items, networks: need(networks).items });
  const groupList = owners.groups;
  const names = await auditNames(c, groupList, page.items);
  return c.html(
    <AuditPage
      user={c.var.user}
      csrfToken={c.var.csrfToken}
      events={page.items}
      nextCursor={page.nextCursor}
      filters={filters}
      groups={groupList}
      people={names.people}
      names={names.names}
      networks={owners.networks}
    />,
  );
});
