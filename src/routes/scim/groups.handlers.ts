import type { Context } from "hono";
import { scimOf } from "../../lib/principal";
import type { AppEnv, AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { parseEqualityFilter } from "../../services/scim/filters";
import { groupChange, groupFromResource } from "../../services/scim/group-patch";
import { toScimGroup } from "../../services/scim/group-resource";
import {
  changeIdpGroup,
  createIdpGroup,
  deleteIdpGroup,
  findIdpGroup,
  GROUP_FILTER_ATTRIBUTES,
  groupMembers,
  listIdpGroups,
  membersOfGroups,
} from "../../services/scim/groups";
import { scimWrite } from "../../services/scim/scim-guard";
import type * as routes from "./groups.routes";
import { listResponse, originOf, scimPage } from "./scim-list";
import { SCIM_HEADERS } from "./scim.schemas";

const write = (c: Context<AppEnv>, status: number) => scimWrite(auditOf(c, status), scimOf(c).tokenId);

/** `excludedAttributes=members` (Entra and Okta ask for it when they only want the group's id). */
const withoutMembers = (excluded: string | undefined) => !!excluded?.split(",").some((name) => name.trim().toLowerCase() === "members");

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const input = groupFromResource(c.req.valid("json"));
  const group = await createIdpGroup(c.env, c.var.db, input, write(c, 201));
  return c.json(toScimGroup(group, await groupMembers(c.var.db, group.id), originOf(c.req.url)), 201, SCIM_HEADERS);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const query = c.req.valid("query");
  const filter = parseEqualityFilter(query.filter, GROUP_FILTER_ATTRIBUTES);
  const { startIndex, count } = scimPage(query);
  const { total, rows } = await listIdpGroups(c.var.db, filter, startIndex, count);
  const origin = originOf(c.req.url);
  const bare = withoutMembers(query.excludedAttributes);
  const members = bare
    ? undefined
    : await membersOfGroups(
        c.var.db,
        rows.map((group) => group.id),
      );
  const resources = rows.map((group) => toScimGroup(group, members?.get(group.id), origin));
  return c.json(listResponse(resources, total, startIndex), 200, SCIM_HEADERS);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const group = await findIdpGroup(c.var.db, c.req.valid("param").id);
  const members = withoutMembers(c.req.valid("query").excludedAttributes) ? undefined : await groupMembers(c.var.db, group.id);
  return c.json(toScimGroup(group, members, originOf(c.req.url)), 200, SCIM_HEADERS);
};

export const replace: AppRouteHandler<typeof routes.replace> = async (c) => {
  const group = await findIdpGroup(c.var.db, c.req.valid("param").id);
  const input = groupFromResource(c.req.valid("json"));
  const next = await changeIdpGroup(
    c.env,
    c.var.db,
    group,
    { ...input, members: new Set(input.members), add: new Set(), remove: new Set() },
    write(c, 200),
  );
  return c.json(toScimGroup(next, await groupMembers(c.var.db, group.id), originOf(c.req.url)), 200, SCIM_HEADERS);
};

export const patch: AppRouteHandler<typeof routes.patch> = async (c) => {
  const group = await findIdpGroup(c.var.db, c.req.valid("param").id);
  await changeIdpGroup(c.env, c.var.db, group, groupChange(c.req.valid("json").Operations), write(c, 204));
  return c.body(null, 204);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const group = await findIdpGroup(c.var.db, c.req.valid("param").id);
  await deleteIdpGroup(c.env, c.var.db, group, write(c, 204));
  return c.body(null, 204);
};
