import { type Context, Hono } from "hono";
import type { Schema } from "../../../client/index.ts";
import { need, onFailure } from "../failure";
import { formFields, refusal, worded } from "../form";
import { searchList, searchWords } from "../list-search";
import { NETWORK_FIELDS, NETWORK_SENTENCES, NetworksPage } from "../pages/networks";
import { canChangeGroup } from "../roles";
import type { SignedInEnv } from "../types";

export const networkRoutes = new Hono<SignedInEnv>();
networkRoutes.onError(onFailure);

/** A page of networks (or of those whose name contains `q`, list-search.ts) and the groups that name them. */
async function listPage(c: Context<SignedInEnv>, cursor?: string, q?: string) {
  const read = async (at: string | undefined, limit: number) =>
    need(await c.var.api.GET("/api/v1/networks", { params: { query: { limit, ...(at ? { cursor: at } : {}) } } }));
  const [networkPage, groups] = await Promise.all([
    searchList(read, (network) => [network.name, network.dnsDomain], q, cursor, 50),
    c.var.api.GET("/api/v1/groups", { params: { query: { limit: 200 } } }),
  ]);
  const groupList: Schema<"Group">[] = need(groups).items;
  return {
    networks: networkPage.items,
    nextCursor: networkPage.nextCursor,
    search: { q, searched: networkPage.searched },
    groupNames: new Map(groupList.map((group) => [group.id, group.name])),
    creatableIn: groupList.filter((group) => canChangeGroup(c.var.user, group)),
  };
}

/** The networks of the group a refused create named (none when it named no group the caller may list). */
async function groupNetworks(c: Context<SignedInEnv>, groupId: string): Promise<Schema<"Network">[]> {
  if (!groupId) return [];
  const listed = await c.var.api.GET("/api/v1/networks", { params: { query: { groupId, limit: 200 } } });
  return listed.data?.items ?? [];
}

networkRoutes.get("/networks", async (c) => {
  const page = await listPage(c, c.req.query("cursor"), searchWords(c.req.query("q")));
  // ?group= preselects the group (the group page's "Create a network in …" link).
  const values = { groupId: c.req.query("group") ?? "" };
  return c.html(<NetworksPage user={c.var.user} csrfToken={c.var.csrfToken} {...page} values={values} />);
});

networkRoutes.post("/networks", async (c) => {
  const values = await formFields(c);
  const body = {
    groupId: values.groupId ?? "",
    name: values.name ?? "",
    cidr: values.cidr ?? "",
    ...(values.dnsDomain ? { dnsDomain: values.dnsDomain } : {}),
  };
  const created = await c.var.api.POST("/api/v1/networks", { body });
  if (created.data) return c.redirect(`/networks/${created.data.id}?created=1`, 303);
  const { message, fields, status } = refusal(created);
  const [page, siblings] = await Promise.all([listPage(c), groupNetworks(c, body.groupId)]);
  // A name conflict names the group's network by id: name it from the group's own list, which the first page of
  // every network (an admin's) need not hold.
  const names = new Map([...page.groupNames, ...[...page.networks, ...siblings].map((network) => [network.id, network.name] as const)]);
  const error = worded({ message, fields }, { names, fields: NETWORK_FIELDS, sentences: NETWORK_SENTENCES });
  return c.html(<NetworksPage user={c.var.user} csrfToken={c.var.csrfToken} {...page} values={values} error={error} />, status);
});
