// SCIM's paging (RFC 7644 §3.4.2.4) and its ListResponse: 1-based startIndex, count as the page size.
import { SCIM_SCHEMAS } from "../../lib/scim-wire";
import { MAX_SCIM_PAGE } from "./scim.schemas";

export function scimPage(query: { startIndex?: number; count?: number }) {
  return { startIndex: Math.max(1, query.startIndex ?? 1), count: Math.min(MAX_SCIM_PAGE, Math.max(0, query.count ?? MAX_SCIM_PAGE)) };
}

export const listResponse = <T>(resources: T[], totalResults: number, startIndex: number) => ({
  schemas: [SCIM_SCHEMAS.listResponse],
  totalResults,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});

/** Resource locations are absolute (meta.location): the origin the client called. */
export const originOf = (url: string) => new URL(url).origin;
