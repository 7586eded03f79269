import type { Schema } from "../../../client/index.ts";
import { when } from "../format";
import { CsrfField, ErrorNotice, Page } from "../layout";
import type { ConsoleUser } from "../types";
import { AdminNav } from "./admin-nav";

export interface AdminSettingsProps {
  user: ConsoleUser;
  csrfToken: string;
  view: Schema<"AdminSettingsView">;
  /** What the form shows: the stored settings, or what was just submitted and refused. */
  settings: Schema<"AdminSettings">;
  error?: { message: string; fields?: { path: string; message: string }[] };
}

const STATUSES = ["active", "draining", "disabled"] as const;
const text = (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value));

/** Platform settings: each field empty falls back to the environment's value (shown as "now"). */
export function AdminSettingsPage({ user, csrfToken, view, settings, error }: AdminSettingsProps) {
  const { effective } = view;
  const statuses = new Set(settings.gatewayEligibility?.statuses ?? ["active"]);
  return (
    <Page title="Platform settings" user={user} csrfToken={csrfToken} section="/admin">
      <AdminNav current="/admin" />
      <p class="help">
        Last changed {when(view.updatedAt)}
        {view.updatedBy ? ` by ${view.updatedBy}` : ""}. Leave a field empty to use the deployment's default.
      </p>
      {view.policiesOverLimit.length > 0 && (
        <p class="notice">{view.policiesOverLimit.length} routing policies have more hops than the current limit allows.</p>
      )}
      <ErrorNotice message={error?.message} fields={error?.fields} />
      <form method="post" action="/admin/settings" class="card">
        <CsrfField token={csrfToken} />
        <label for="max-hops">Most gateway hops in a policy (now {effective.routingPolicyMaxHops})</label>
        <input id="max-hops" name="routingPolicyMaxHops" type="number" min={1} max={16} value={text(settings.routingPolicyMaxHops)} />
        <fieldset>
          <legend>Gateway statuses eligible for new hops</legend>
          {STATUSES.map((status) => (
            <div>
              <input type="checkbox" id={`eligible-${status}`} name="eligibleStatuses" value={status} checked={statuses.has(status)} />{" "}
              <label for={`eligible-${status}`}>{status}</label>
            </div>
          ))}
        </fieldset>
        <label for="eligible-regions">Eligible region ids (empty: every region)</label>
        <textarea id="eligible-regions" name="eligibleRegions" rows={2}>
          {(settings.gatewayEligibility?.regionIds ?? []).join("\n")}
        </textarea>
        <label for="access-seconds">Access token lifetime, seconds (now {effective.accessTokenSeconds})</label>
        <input
          id="access-seconds"
          name="accessTokenSeconds"
          type="number"
          min={60}
          max={3600}
          value={text(settings.tokenLifetimes?.accessTokenSeconds)}
        />
        <label for="refresh-seconds">Refresh token lifetime, seconds (now {effective.refreshTokenSeconds})</label>
        <input
          id="refresh-seconds"
          name="refreshTokenSeconds"
          type="number"
          min={3600}
          value={text(settings.tokenLifetimes?.refreshTokenSeconds)}
        />
        <label for="offline-seconds">A device is offline after, seconds (now {effective.offlineAfterSeconds})</label>
        <input
          id="offline-seconds"
          name="offlineAfterSeconds"
          type="number"
          min={30}
          max={86400}
          value={text(settings.heartbeat?.offlineAfterSeconds)}
        />
        <label for="sign-up">Who may create accounts</label>
        <select id="sign-up" name="signUpMode">
          <option value="invites" selected={settings.signUp?.mode !== "admins_only"}>
            Invited people (accepting an invite creates the account)
          </option>
          <option value="admins_only" selected={settings.signUp?.mode === "admins_only"}>
            Platform admins only
          </option>
        </select>
        <button type="submit">Save settings</button>
      </form>
    </Page>
  );
}
