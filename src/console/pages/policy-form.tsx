import type { Schema } from "../../../client/index.ts";
import { errorsAt, type FormError } from "../form";
import type { FieldMap } from "../humanize";
import { CsrfField, FieldError, invalidAttrs } from "../layout";

/** A hop the path may name: a gateway node or a gateway pool (gpl_…, a hop with failover). */
export interface HopChoice {
  id: string;
  label: string;
}

/** Gateway nodes outside any pool, then the pools: a pool's members are named only through their pool. */
export function hopChoices(nodes: Schema<"Node">[], pools: Schema<"GatewayPool">[]): HopChoice[] {
  const pooled = new Set(pools.flatMap((pool) => pool.members.map((member) => member.nodeId)));
  return [
    ...nodes
      .filter((node) => node.roles.includes("gateway") && !pooled.has(node.id))
      .map((node) => ({ id: node.id, label: `${node.name} (gateway node)` })),
    ...pools.map((pool) => ({ id: pool.id, label: `${pool.name} (pool of ${pool.members.length})` })),
  ];
}

/** The form's values from a policy, for its edit page: hop1…hopN in path order. */
export const policyValues = (policy: Schema<"RoutingPolicy">): Record<string, string> => ({
  name: policy.name,
  destinationCidr: policy.destinationCidr,
  ...Object.fromEntries(policy.gatewayPath.map((hop, index) => [`hop${index + 1}`, hop])),
});

/** The ordered path from hop1…hopN selects: empty selects are skipped, order kept. */
export const pathOf = (values: Record<string, string>, maxHops: number) =>
  Array.from({ length: maxHops }, (_, index) => values[`hop${index + 1}`] ?? "").filter((hop) => hop !== "");

export interface PolicyFormProps {
  csrfToken: string;
  action: string;
  submitLabel: string;
  choices: HopChoice[];
  maxHops: number;
  values?: Record<string, string>;
  error?: FormError;
}

/** The policy form's fields by the API's paths (gatewayPath.N is "Hop N+1": humanize.ts places it). */
export const POLICY_FIELDS: FieldMap = {
  name: { label: "Name", field: "policy-name" },
  destinationCidr: { label: "Destination (CIDR)", field: "destinationCidr" },
  gatewayPath: { label: "Hop 1", field: "hop1" },
};

/** Create or edit a via_gateway policy: the path is one select per hop, in order (first hop first). */
export function PolicyForm({ csrfToken, action, submitLabel, choices, maxHops, values = {}, error }: PolicyFormProps) {
  const at = (field: string) => errorsAt(error, field);
  return (
    <form method="post" action={action} class="card">
      <CsrfField token={csrfToken} />
      <label for="policy-name">Name</label>
      <input id="policy-name" name="name" required value={values.name ?? ""} {...invalidAttrs("policy-name", at("policy-name"))} />
      <FieldError field="policy-name" messages={at("policy-name")} />
      <label for="destinationCidr">Destination (CIDR)</label>
      <input
        id="destinationCidr"
        name="destinationCidr"
        required
        placeholder="172.30.0.0/16"
        value={values.destinationCidr ?? ""}
        {...invalidAttrs("destinationCidr", at("destinationCidr"))}
      />
      <FieldError field="destinationCidr" messages={at("destinationCidr")} />
      <fieldset>
        <legend>Gateway path, in order (type via_gateway)</legend>
        <p class="help">Traffic for the destination goes through hop 1 first; the last hop is the egress. Leave later hops empty.</p>
        {Array.from({ length: maxHops }, (_, index) => {
          const field = `hop${index + 1}`;
          return (
            <>
              <label for={field}>Hop {index + 1}</label>
              <select id={field} name={field} required={index === 0} {...invalidAttrs(field, at(field))}>
                <option value="">{index === 0 ? "Choose a gateway node or pool" : "None"}</option>
                {choices.map((choice) => (
                  <option value={choice.id} selected={values[field] === choice.id}>
                    {choice.label}
                  </option>
                ))}
              </select>
              <FieldError field={field} messages={at(field)} />
            </>
          );
        })}
      </fieldset>
      <button type="submit">{submitLabel}</button>
    </form>
  );
}
