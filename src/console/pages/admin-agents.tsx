import type { Schema } from "../../../client/index.ts";
import { ago } from "../format";
import { CsrfField, EmptyState, ErrorNotice, Page } from "../layout";
import { SearchBox, SearchResult } from "../list-filter";
import { NextPage, PostButton, SecretOnce } from "../parts";
import type { ConsoleUser } from "../types";
import { AdminNav } from "./admin-nav";

export interface AdminAgentsProps {
  user: ConsoleUser;
  csrfToken: string;
  agents: Schema<"Agent">[];
  regions: Schema<"Region">[];
  gateways: Schema<"Gateway">[];
  /** An enrolment token just issued: shown in this answer only. */
  token?: Schema<"AgentEnrolmentToken">;
  /** The console's own origin: the API a gateway daemon enrols with (its command is shown whole). */
  origin?: string;
  error?: { message: string; fields?: { path: string; message: string }[] };
  /** The API's cursor after this page (null: the last), and the search that made it. */
  nextCursor?: string | null;
  search?: { q?: string; searched: number };
}

/** Gateway agents (managers and daemons): list, revoke, and issue single-use enrolment tokens. */
export function AdminAgentsPage(props: AdminAgentsProps) {
  const { user, csrfToken, agents, regions, gateways, token, origin, error, nextCursor = null, search } = props;
  return (
    <Page title="Agents" user={user} csrfToken={csrfToken} section="/admin">
      <AdminNav current="/admin/agents" />
      {token && (
        <SecretOnce id="agent-token" label="Agent enrolment token" value={token.token}>
          <p>Single use, until {token.expiresAt}.</p>
          {token.kind === "gateway-daemon" && origin ? (
            // The whole command, as the node page shows it: nothing left for the operator to assemble.
            <>
              <p>On the gateway machine, as root:</p>
              <pre class="command">
                <code id="agent-enrol-command">{`wgo gateway enrol --api ${origin} --token ${token.token}`}</code>
              </pre>
              <button type="button" class="secondary" data-copy="agent-enrol-command">
                Copy enrol command
              </button>
            </>
          ) : (
            <p>
              A gateway manager enrols with it through the API: <code>POST /api/v1/agents/enrol</code> (docs/agents.md).
            </p>
          )}
        </SecretOnce>
      )}
      <ErrorNotice message={error?.message} fields={error?.fields} />
      <SearchBox path="/admin/agents" label="Search agents by name, gateway or region" q={search?.q} />
      <SearchResult q={search?.q} shown={agents.length} searched={search?.searched ?? 0} more={nextCursor !== null} />
      {agents.length === 0 && search?.q ? (
        <EmptyState>No agent matches “{search.q}”.</EmptyState>
      ) : agents.length === 0 ? (
        <EmptyState>No agents yet. Issue an enrolment token below and enrol the agent with it.</EmptyState>
      ) : (
        <table>
          <caption class="visually-hidden">Agents</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Version</th>
              <th scope="col">Status</th>
              <th scope="col">Last seen</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {agents.map((agent) => (
              <tr>
                <td>{agent.name}</td>
                <td>{agent.kind}</td>
                <td>{agent.version || "—"}</td>
                <td>{agent.status === "revoked" ? "revoked" : agent.online ? "online" : "offline"}</td>
                <td>{ago(agent.lastSeenAt)}</td>
                <td>
                  {agent.status === "active" && (
                    <PostButton
                      action={`/admin/agents/${agent.id}/revoke`}
                      csrfToken={csrfToken}
                      label="Revoke"
                      name={`Revoke agent ${agent.name}`}
                      danger
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NextPage path="/admin/agents" query={{ q: search?.q }} cursor={nextCursor} />
      <section aria-labelledby="issue-token">
        <h2 id="issue-token">Issue an enrolment token</h2>
        <form method="post" action="/admin/agents/tokens" class="card">
          <CsrfField token={csrfToken} />
          <label for="token-kind">Kind</label>
          <select id="token-kind" name="kind">
            <option value="gateway-daemon">Gateway daemon (runs one gateway)</option>
            <option value="gateway-manager">Gateway manager (registers a region's gateways)</option>
          </select>
          <label for="token-gateway">Gateway (daemons)</label>
          <select id="token-gateway" name="gatewayId">
            <option value="">—</option>
            {gateways.map((gateway) => (
              <option value={gateway.id}>{gateway.name}</option>
            ))}
          </select>
          <label for="token-region">Region (managers)</label>
          <select id="token-region" name="regionId">
            <option value="">—</option>
            {regions.map((region) => (
              <option value={region.id}>{region.name}</option>
            ))}
          </select>
          <button type="submit">Issue token</button>
        </form>
      </section>
    </Page>
  );
}
