import type { Schema } from "../../../client/index.ts";
import { InputField, SelectField } from "../fields";
import type { FormError } from "../form";
import { ago } from "../format";
import type { FieldMap, SentenceFields } from "../humanize";
import { CsrfField, EmptyState, ErrorNotice, Page } from "../layout";
import { SearchBox, SearchResult } from "../list-filter";
import { NextPage } from "../parts";
import type { ConsoleUser } from "../types";
import { AdminNav } from "./admin-nav";

export interface AdminInventoryProps {
  user: ConsoleUser;
  csrfToken: string;
  regions: Schema<"Region">[];
  gateways: Schema<"Gateway">[];
  error?: FormError & { form: "region" | "gateway" | "row" };
  values?: Record<string, string>;
  /** The console page that sent the admin here for a gateway (returnPath), linked back to and kept across forms. */
  back?: string;
  /** The next page of gateways, and the words searched (`?q=`) with how many gateways were read. */
  nextCursor?: string | null;
  search?: { q?: string; searched: number };
}

/** Only a network's nodes page is a place to return to (never a URL another site could put in the link). */
export const returnPath = (value: string | undefined) => (value && /^\/networks\/[A-Za-z0-9_-]+\/nodes$/.test(value) ? value : undefined);

const BackField = ({ back }: { back?: string }) => (back ? <input type="hidden" name="back" value={back} /> : null);

/** Each form's fields by the API's paths: a refusal is shown beside the field it names. */
export const INVENTORY_FIELDS: Record<"region" | "gateway" | "row", FieldMap> = {
  region: { name: { label: "Region name", field: "region-name" } },
  gateway: {
    regionId: { label: "Region", field: "gateway-region" },
    name: { label: "Name", field: "gateway-name" },
    publicHost: { label: "Public host", field: "gateway-host" },
    capacity: { label: "Capacity", field: "gateway-capacity" },
  },
  row: {},
};
/** "regionId reg_… is not a region" has no fields[]: it is about the region select. */
export const INVENTORY_SENTENCES: SentenceFields = [[/^regionId /, "regionId"]];

const STATUSES = ["active", "draining", "disabled"] as const;
const HEALTH_CLASS = { healthy: "status-ok", degraded: "status-warn", down: "status-bad", unknown: "" } as const;

/** The shared gateway inventory: regions, gateways with status and health; create both, change a status. */
export function AdminInventoryPage(props: AdminInventoryProps) {
  const { user, csrfToken, regions, gateways, error, values = {}, back, nextCursor = null, search = { searched: 0 } } = props;
  const { q } = search;
  const regionNames = new Map(regions.map((region) => [region.id, region.name]));
  const notice = (form: string) => error?.form === form && <ErrorNotice message={error.message} fields={error.fields} />;
  const gatewayError = error?.form === "gateway" ? error : undefined;
  const regionError = error?.form === "region" ? error : undefined;
  return (
    <Page title="Regions and gateways" user={user} csrfToken={csrfToken} section="/admin">
      <AdminNav current="/admin/inventory" />
      {back && (
        <p class="notice">
          <a href={back}>Back to adding the gateway node</a> once the gateway is here.
        </p>
      )}
      {notice("row")}
      <h2 id="gateways">Gateways</h2>
      <SearchBox path="/admin/inventory" label="Search gateways by name or host" q={q} keep={{ back }} />
      <SearchResult q={q} shown={gateways.length} searched={search.searched} more={nextCursor !== null} />
      {gateways.length === 0 && q ? null : gateways.length === 0 ? (
        <EmptyState>No gateways yet. Add a region, then a gateway in it (or let a gateway-manager agent register them).</EmptyState>
      ) : (
        <table>
          <caption class="visually-hidden">Gateways</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Region</th>
              <th scope="col">Public host</th>
              <th scope="col">Health</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {gateways.map((gateway) => (
              <tr>
                <td>{gateway.name}</td>
                <td>{regionNames.get(gateway.regionId) ?? gateway.regionId}</td>
                <td>{gateway.publicHost ?? "—"}</td>
                <td class={HEALTH_CLASS[gateway.health]}>
                  {gateway.health} ({ago(gateway.healthCheckedAt)})
                </td>
                <td>
                  <form method="post" action={`/admin/gateways/${gateway.id}/status`}>
                    <CsrfField token={csrfToken} />
                    <label for={`status-${gateway.id}`} class="visually-hidden">
                      Status of {gateway.name}
                    </label>
                    <select id={`status-${gateway.id}`} name="status">
                      {STATUSES.map((status) => (
                        <option value={status} selected={status === gateway.status}>
                          {status}
                        </option>
                      ))}
                    </select>
                    <button type="submit" class="secondary" aria-label={`Set status of ${gateway.name}`}>
                      Set status
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NextPage path="/admin/inventory" query={{ q, back }} cursor={nextCursor} />
      {regions.length > 0 && (
        <section aria-labelledby="add-gateway">
          <h2 id="add-gateway">Add a gateway</h2>
          {notice("gateway")}
          <form method="post" action="/admin/gateways" class="card">
            <CsrfField token={csrfToken} />
            <BackField back={back} />
            <SelectField id="gateway-region" label="Region" error={gatewayError} select={{ name: "regionId" }}>
              {regions.map((region) => (
                <option value={region.id} selected={region.id === values.regionId}>
                  {region.name}
                </option>
              ))}
            </SelectField>
            <InputField
              id="gateway-name"
              label="Name"
              error={gatewayError}
              input={{ name: "name", required: true, value: gatewayError ? (values.name ?? "") : "" }}
            />
            <InputField
              id="gateway-host"
              label="Public host (optional)"
              error={gatewayError}
              input={{ name: "publicHost", placeholder: "gw1.example.com", value: gatewayError ? (values.publicHost ?? "") : "" }}
            />
            <InputField
              id="gateway-capacity"
              label="Capacity (optional)"
              error={gatewayError}
              input={{ name: "capacity", type: "number", min: 0, value: gatewayError ? (values.capacity ?? "") : "" }}
            />
            <button type="submit">Add gateway</button>
          </form>
        </section>
      )}
      <h2 id="regions">Regions</h2>
      {regions.length === 0 ? (
        <EmptyState>No regions yet. Add the first one below.</EmptyState>
      ) : (
        <ul>
          {regions.map((region) => (
            <li>{region.name}</li>
          ))}
        </ul>
      )}
      <section aria-labelledby="add-region">
        <h3 id="add-region">Add a region</h3>
        {notice("region")}
        <form method="post" action="/admin/regions" class="card">
          <CsrfField token={csrfToken} />
          <BackField back={back} />
          <InputField
            id="region-name"
            label="Region name"
            error={regionError}
            input={{ name: "name", required: true, value: regionError ? (values.name ?? "") : "" }}
          />
          <button type="submit">Add region</button>
        </form>
      </section>
    </Page>
  );
}
