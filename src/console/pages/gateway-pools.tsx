import type { Schema } from "../../../client/index.ts";
import { InputField, SelectField } from "../fields";
import type { FormError } from "../form";
import type { FieldMap, SentenceFields } from "../humanize";
import { CsrfField, EmptyState } from "../layout";

const MAX_FORM_MEMBERS = 4;

export interface PoolsProps {
  csrfToken: string;
  networkId: string;
  canChange: boolean;
  pools: Schema<"GatewayPool">[];
  /** Gateway nodes in no pool yet: what a new pool can hold. */
  free: Schema<"Node">[];
  names: Map<string, string>;
  values?: Record<string, string>;
  error?: FormError;
  /** The words of the page's search, when the pools shown are those matching them. */
  searched?: string;
}

/** The pool form's fields by the API's paths: members.N is the N+1th member select (priority order). */
export const POOL_FIELDS: FieldMap = {
  name: { label: "Pool name", field: "pool-name" },
  members: { label: "Member 1", field: "member1" },
  ...Object.fromEntries(
    Array.from({ length: MAX_FORM_MEMBERS }, (_, index) => [
      `members.${index}`,
      { label: `Member ${index + 1}`, field: `member${index + 1}` },
    ]),
  ),
  preempt: { label: "Preempt", field: "preempt" },
};
export const POOL_SENTENCES: SentenceFields = [[/already uses the name/, "name"]];

type PoolMember = Schema<"GatewayPool">["members"][number];

const healthWord = (member: PoolMember) => {
  // Healthy again after the pool failed away from it: it stands by, but is not chosen back until then.
  if (member.healthy && member.health.heldDownUntil) return `healthy, held down until ${member.health.heldDownUntil.slice(11, 19)} UTC`;
  if (member.healthy) return "healthy";
  // Never reported: its agent is not enrolled or not running yet, which is a next step, not a failure.
  if (member.health.reason === "stale report" && member.health.lastSeenAt === null) return "awaiting agent";
  return `unhealthy${member.health.reason ? `: ${member.health.reason}` : ""}`;
};

const stateOf = (member: PoolMember, active: boolean) =>
  `${active ? "active" : member.drained ? "drained" : "standby"}, ${healthWord(member)}`;

/** Gateway pools: hops with failover. Members in preference order; drain takes one out of service. */
export function GatewayPools({ csrfToken, networkId, canChange, pools, free, names, values = {}, error, searched }: PoolsProps) {
  const base = `/networks/${networkId}/pools`;
  return (
    <section aria-labelledby="pools-heading">
      <h2 id="pools-heading">Gateway pools</h2>
      {pools.length === 0 && searched ? (
        <EmptyState>No gateway pool matches “{searched}”.</EmptyState>
      ) : pools.length === 0 ? (
        <EmptyState>No gateway pools. {canChange ? "Create one below to give a hop failover." : ""}</EmptyState>
      ) : (
        <table>
          <caption class="visually-hidden">Gateway pools and their members</caption>
          <thead>
            <tr>
              <th scope="col">Pool</th>
              <th scope="col">Member</th>
              <th scope="col">Priority</th>
              <th scope="col">State</th>
              {canChange && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {pools.flatMap((pool) =>
              pool.members.map((member) => {
                const name = names.get(member.nodeId) ?? member.nodeId;
                return (
                  <tr>
                    <td>{pool.name}</td>
                    <td>{name}</td>
                    <td>{member.priority}</td>
                    <td>{stateOf(member, member.nodeId === pool.activeNodeId)}</td>
                    {canChange && (
                      <td>
                        <form method="post" action={`${base}/${pool.id}/members/${member.nodeId}/${member.drained ? "undrain" : "drain"}`}>
                          <CsrfField token={csrfToken} />
                          <button type="submit" class="secondary">
                            {member.drained ? "Undrain" : "Drain"} {name}
                          </button>
                        </form>
                      </td>
                    )}
                  </tr>
                );
              }),
            )}
          </tbody>
        </table>
      )}
      {canChange && (
        <form method="post" action={base} class="card">
          <h3>Create a gateway pool</h3>
          <CsrfField token={csrfToken} />
          <InputField id="pool-name" label="Pool name" error={error} input={{ name: "name", required: true, value: values.name ?? "" }} />
          {Array.from({ length: MAX_FORM_MEMBERS }, (_, index) => (
            <SelectField
              id={`member${index + 1}`}
              label={`Member ${index + 1} (priority ${index + 1})`}
              error={error}
              select={{ name: `member${index + 1}`, required: index === 0 }}
            >
              <option value="">None</option>
              {free.map((node) => (
                <option value={node.id} selected={values[`member${index + 1}`] === node.id}>
                  {node.name}
                </option>
              ))}
            </SelectField>
          ))}
          <div class="check">
            <input type="checkbox" id="preempt" name="preempt" value="on" checked={values.preempt === "on"} />
            <label for="preempt">Preempt: a preferred member takes traffic back once healthy again</label>
          </div>
          <button type="submit">Create pool</button>
        </form>
      )}
    </section>
  );
}

/** The pool form's members in priority order (member1 = priority 1), empty selects skipped. */
export const poolMembersOf = (values: Record<string, string>) =>
  Array.from({ length: MAX_FORM_MEMBERS }, (_, index) => values[`member${index + 1}`] ?? "")
    .map((nodeId, index) => ({ nodeId, priority: index + 1 }))
    .filter((member) => member.nodeId !== "");
