import type { Schema } from "../../../client/index.ts";
import { ago } from "../format";
import { CsrfField, EmptyState, ErrorNotice, Page } from "../layout";
import type { ConsoleUser } from "../types";
import { AdminNav } from "./admin-nav";

export interface AdminInventoryProps {
  user: ConsoleUser;
  csrfToken: string;
  regions: Schema<"Region">[];
  gateways: Schema<"Gateway">[];
  error?: { message: string; fields?: { path: string; message: string }[]; form: "region" | "gateway" | "row" };
  values?: Record<string, string>;
  /** The console page that sent the admin here for a gateway (returnPath), linked back to and kept across forms. */
  back?: string;
}

/** Only a network's nodes page is a place to return to (never a URL another site could put in the link). */
export const returnPath = (value: string | undefined) => (value && /^\/networks\/[A-Za-z0-9_-]+\/nodes$/.test(value) ? value : undefined);

const BackField = ({ back }: { back?: string }) => (back ? <input type="hidden" name="back" value={back} /> : null);

const STATUSES = ["active", "draining", "disabled"] as const;
const HEALTH_CLASS = { healthy: "status-ok", degraded: "status-warn", down: "status-bad", unknown: "" } as const;

/** The shared gateway inventory: regions, gateways with status and health; create both, change a status. */
export function AdminInventoryPage({ user, csrfToken, regions, gateways, error, values = {}, back }: AdminInventoryProps) {
  const regionNames = new Map(regions.map((region) => [region.id, region.name]));
  const notice = (form: string) => error?.form === form && <ErrorNotice message={error.message} fields={error.fields} />;
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
      {gateways.length === 0 ? (
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
      {regions.length > 0 && (
        <section aria-labelledby="add-gateway">
          <h2 id="add-gateway">Add a gateway</h2>
          {notice("gateway")}
          <form method="post" action="/admin/gateways" class="card">
            <CsrfField token={csrfToken} />
            <BackField back={back} />
            <label for="gateway-region">Region</label>
            <select id="gateway-region" name="regionId">
              {regions.map((region) => (
                <option value={region.id} selected={region.id === values.regionId}>
                  {region.name}
                </option>
              ))}
            </select>
            <label for="gateway-name">Name</label>
            <input id="gateway-name" name="name" required value={values.name ?? ""} />
            <label for="gateway-host">Public host (optional)</label>
            <input id="gateway-host" name="publicHost" placeholder="gw1.example.com" value={values.publicHost ?? ""} />
            <label for="gateway-capacity">Capacity (optional)</label>
            <input id="gateway-capacity" name="capacity" type="number" min={0} value={values.capacity ?? ""} />
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
            <li>
              {region.name} <code>{region.id}</code>
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="add-region">
        <h3 id="add-region">Add a region</h3>
        {notice("region")}
        <form method="post" action="/admin/regions" class="card">
          <CsrfField token={csrfToken} />
          <BackField back={back} />
          <label for="region-name">Region name</label>
          <input id="region-name" name="name" required value={error?.form === "region" ? (values.name ?? "") : ""} />
          <button type="submit">Add region</button>
        </form>
      </section>
    </Page>
  );
}
