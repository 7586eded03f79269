import type { Schema } from "../../../client/index.ts";
import { CsrfField, EmptyState } from "../layout";
import { SearchBox, SearchResult } from "../list-filter";
import { Success } from "../parts";
import type { ConsoleUser } from "../types";
import type { ChainBox } from "./chain-model";
import { GatewayPools, type PoolsProps } from "./gateway-pools";
import { NetworkFrame } from "./network-frame";
import { PolicyChain } from "./policy-chain";
import type { FormError } from "../form";
import { type HopChoice, PolicyForm } from "./policy-form";
import { type IntentProps, RoutingIntent } from "./routing-intent";

export interface PoliciesProps {
  user: ConsoleUser;
  csrfToken: string;
  network: Schema<"Network">;
  canChange: boolean;
  policies: { policy: Schema<"RoutingPolicy">; chain: ChainBox[] }[];
  choices: HopChoice[];
  maxHops: number;
  pools: Omit<PoolsProps, "csrfToken" | "networkId" | "canChange" | "values" | "error">;
  intent: Omit<IntentProps, "networkId">;
  error?: FormError;
  /** What a refused form held, and which form it was. */
  values?: Record<string, string>;
  valuesOf?: "policy" | "pool";
  /** The name of the policy just created (the create's redirect names it). */
  created?: string;
  /** The words searched (`?q=`), and how many policies and pools were searched. */
  search?: { q: string; searched: number };
}

export function NetworkPoliciesPage(props: PoliciesProps) {
  const { user, csrfToken, network, canChange, policies, error, values, valuesOf } = props;
  const base = `/networks/${network.id}/policies`;
  return (
    <NetworkFrame user={user} csrfToken={csrfToken} network={network} tab="/policies" error={error}>
      {props.created && <Success>Created the routing policy {props.created}.</Success>}
      <SearchBox path={base} label="Search policies and pools by name, destination or gateway" q={props.search?.q} />
      {props.search && (
        <SearchResult q={props.search.q} shown={policies.length + props.pools.pools.length} searched={props.search.searched} more={false} />
      )}
      {policies.length === 0 && props.search ? (
        <EmptyState>No routing policy matches “{props.search.q}”.</EmptyState>
      ) : policies.length === 0 ? (
        <EmptyState>
          No routing policies. {canChange ? "Create one below: it sends a destination through gateway nodes or pools." : ""}
        </EmptyState>
      ) : (
        policies.map(({ policy, chain }) => (
          <section aria-labelledby={`policy-${policy.id}`}>
            <h2 id={`policy-${policy.id}`}>{policy.name}</h2>
            <p>
              Sends <code>{policy.destinationCidr}</code> via {policy.gatewayPath.length} hop
              {policy.gatewayPath.length === 1 ? "" : "s"} (revision {policy.revision}).
            </p>
            <PolicyChain id={policy.id} name={policy.name} boxes={chain} />
            {canChange && (
              <ul class="buttons">
                <li>
                  <a class="button" href={`${base}/${policy.id}/edit`}>
                    Edit<span class="visually-hidden"> {policy.name}</span>
                  </a>
                </li>
                <li>
                  <form method="post" action={`${base}/${policy.id}/delete`}>
                    <CsrfField token={csrfToken} />
                    <button type="submit" class="danger">
                      Delete<span class="visually-hidden"> {policy.name}</span>
                    </button>
                  </form>
                </li>
              </ul>
            )}
          </section>
        ))
      )}
      {canChange && (
        <section aria-labelledby="create-policy">
          <h2 id="create-policy">Create a routing policy</h2>
          {props.choices.length === 0 ? (
            <EmptyState>Add a gateway node on the Nodes page first: a policy's path is made of gateway nodes or pools.</EmptyState>
          ) : (
            <PolicyForm
              csrfToken={csrfToken}
              action={base}
              submitLabel="Create policy"
              choices={props.choices}
              maxHops={props.maxHops}
              values={valuesOf === "policy" ? values : undefined}
              error={valuesOf === "policy" ? error : undefined}
            />
          )}
        </section>
      )}
      <RoutingIntent networkId={network.id} {...props.intent} />
      <GatewayPools
        csrfToken={csrfToken}
        networkId={network.id}
        canChange={canChange}
        {...props.pools}
        values={valuesOf === "pool" ? values : undefined}
        error={valuesOf === "pool" ? error : undefined}
        searched={props.search?.q}
      />
    </NetworkFrame>
  );
}

export interface EditPolicyProps {
  user: ConsoleUser;
  csrfToken: string;
  network: Schema<"Network">;
  policy: Schema<"RoutingPolicy">;
  choices: HopChoice[];
  maxHops: number;
  values: Record<string, string>;
  error?: FormError;
}

export function EditPolicyPage({ user, csrfToken, network, policy, choices, maxHops, values, error }: EditPolicyProps) {
  const base = `/networks/${network.id}/policies`;
  return (
    <NetworkFrame user={user} csrfToken={csrfToken} network={network} tab="/policies" error={error}>
      <section aria-labelledby="edit-policy">
        <h2 id="edit-policy">Edit {policy.name}</h2>
        <PolicyForm
          csrfToken={csrfToken}
          action={`${base}/${policy.id}/edit`}
          submitLabel="Save policy"
          {...{ choices, maxHops, values, error }}
        />
        <p>
          <a href={base}>Cancel</a>
        </p>
      </section>
    </NetworkFrame>
  );
}
