import type { Schema } from "../../../client/index.ts";
import { FieldsetError, InputField, SelectField, TextareaField } from "../fields";
import type { FormError } from "../form";
import { when } from "../format";
import type { FieldMap } from "../humanize";
import { CsrfField, ErrorNotice, Page } from "../layout";
import type { ConsoleUser } from "../types";
import { AdminNav } from "./admin-nav";

export interface AdminSettingsProps {
  user: ConsoleUser;
  csrfToken: string;
  view: Schema<"AdminSettingsView">;
  /** What the form shows: the stored settings, or what was just submitted and refused. */
  settings: Schema<"AdminSettings">;
  error?: FormError;
}

/** The settings form's fields by the API's paths (a list's entries, e.g. regionIds.0, go to its field). */
export const SETTINGS_FIELDS: FieldMap = {
  routingPolicyMaxHops: { label: "Most gateway hops", field: "max-hops" },
  "gatewayEligibility.statuses": { label: "Eligible statuses", field: "eligible-statuses" },
  "gatewayEligibility.regionIds": { label: "Eligible region ids", field: "eligible-regions" },
  "tokenLifetimes.accessTokenSeconds": { label: "Access token lifetime", field: "access-seconds" },
  "tokenLifetimes.refreshTokenSeconds": { label: "Refresh token lifetime", field: "refresh-seconds" },
  "heartbeat.offlineAfterSeconds": { label: "Offline after", field: "offline-seconds" },
  "signUp.mode": { label: "Who may create accounts", field: "sign-up" },
};

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
        <InputField
          id="max-hops"
          label={`Most gateway hops in a policy (now ${effective.routingPolicyMaxHops})`}
          error={error}
          input={{ name: "routingPolicyMaxHops", type: "number", min: 1, max: 16, value: text(settings.routingPolicyMaxHops) }}
        />
        <fieldset id="eligible-statuses">
          <legend>Gateway statuses eligible for new hops</legend>
          <FieldsetError id="eligible-statuses" error={error} />
          {STATUSES.map((status) => (
            <div>
              <input type="checkbox" id={`eligible-${status}`} name="eligibleStatuses" value={status} checked={statuses.has(status)} />{" "}
              <label for={`eligible-${status}`}>{status}</label>
            </div>
          ))}
        </fieldset>
        <TextareaField
          id="eligible-regions"
          label="Eligible region ids (empty: every region)"
          error={error}
          textarea={{ name: "eligibleRegions", rows: 2 }}
        >
          {(settings.gatewayEligibility?.regionIds ?? []).join("\n")}
        </TextareaField>
        <InputField
          id="access-seconds"
          label={`Access token lifetime, seconds (now ${effective.accessTokenSeconds})`}
          error={error}
          input={{
            name: "accessTokenSeconds",
            type: "number",
            min: 60,
            max: 3600,
            value: text(settings.tokenLifetimes?.accessTokenSeconds),
          }}
        />
        <InputField
          id="refresh-seconds"
          label={`Refresh token lifetime, seconds (now ${effective.refreshTokenSeconds})`}
          error={error}
          input={{ name: "refreshTokenSeconds", type: "number", min: 3600, value: text(settings.tokenLifetimes?.refreshTokenSeconds) }}
        />
        <InputField
          id="offline-seconds"
          label={`A device is offline after, seconds (now ${effective.offlineAfterSeconds})`}
          error={error}
          input={{ name: "offlineAfterSeconds", type: "number", min: 30, max: 86400, value: text(settings.heartbeat?.offlineAfterSeconds) }}
        />
        <SelectField id="sign-up" label="Who may create accounts" error={error} select={{ name: "signUpMode" }}>
          <option value="invites" selected={settings.signUp?.mode !== "admins_only"}>
            Invited people (accepting an invite creates the account)
          </option>
          <option value="admins_only" selected={settings.signUp?.mode === "admins_only"}>
            Platform admins only
          </option>
        </SelectField>
        <button type="submit">Save settings</button>
      </form>
    </Page>
  );
}
