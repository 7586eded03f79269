import type { Schema } from "../../../client/index.ts";
import { InputField, SelectField } from "../fields";
import type { FormError } from "../form";
import type { FieldMap } from "../humanize";
import { CsrfField, EmptyState } from "../layout";
import { SearchBox, SearchResult } from "../list-filter";
import { NextPage } from "../parts";
import type { ConsoleUser } from "../types";
import { NetworkFrame } from "./network-frame";

const TYPES = ["A", "AAAA", "CNAME", "TXT"] as const;

export interface DnsProps {
  user: ConsoleUser;
  csrfToken: string;
  network: Schema<"Network">;
  canChange: boolean;
  records: Schema<"DnsRecord">[];
  nextCursor: string | null;
  error?: FormError;
  values?: Record<string, string>;
  /** The words searched (`?q=`) and how many records were read to find the matches. */
  search?: { q?: string; searched: number };
}

/** The record form's fields by the API's paths: a refusal is shown beside the field it names. */
export const RECORD_FIELDS: FieldMap = {
  name: { label: "Name", field: "record-name" },
  type: { label: "Type", field: "record-type" },
  value: { label: "Value", field: "record-value" },
  ttl: { label: "TTL", field: "record-ttl" },
};

export function NetworkDnsPage(props: DnsProps) {
  const { user, csrfToken, network, canChange, records, nextCursor, error, values, search = { searched: 0 } } = props;
  const base = `/networks/${network.id}/dns`;
  const { q } = search;
  return (
    <NetworkFrame user={user} csrfToken={csrfToken} network={network} tab="/dns" error={error}>
      <p>
        Zone <code>{network.dnsDomain}</code>, DNS revision {network.dnsRevision}. Nodes get their names automatically; these are the
        records added by hand.
      </p>
      <ul class="buttons">
        <li>
          <a class="button" href={`${base}/corefile`} download>
            Download Corefile
          </a>
        </li>
        <li>
          <a class="button" href={`${base}/zonefile`} download>
            Download zone file
          </a>
        </li>
      </ul>
      <SearchBox path={base} label="Search records by name or value" q={q} />
      <SearchResult q={q} shown={records.length} searched={search.searched} more={nextCursor !== null} />
      {records.length === 0 && q ? null : records.length === 0 ? (
        <EmptyState>No records added by hand. {canChange ? "Add one below." : ""}</EmptyState>
      ) : (
        <table>
          <caption class="visually-hidden">DNS records of {network.dnsDomain}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Value</th>
              <th scope="col">TTL (s)</th>
              {canChange && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {records.map((record) => (
              <tr>
                <td>
                  <code>{record.name}</code>
                </td>
                <td>{record.type}</td>
                <td>
                  <code>{record.value}</code>
                </td>
                <td>{record.ttl}</td>
                {canChange && (
                  <td>
                    <a href={`${base}/${record.id}/edit`}>
                      Edit
                      <span class="visually-hidden">
                        {" "}
                        {record.name} {record.type}
                      </span>
                    </a>
                    <form method="post" action={`${base}/${record.id}/delete`}>
                      <CsrfField token={csrfToken} />
                      <button type="submit" class="danger">
                        Delete
                        <span class="visually-hidden">
                          {" "}
                          {record.name} {record.type}
                        </span>
                      </button>
                    </form>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NextPage path={base} query={{ q }} cursor={nextCursor} />
      {canChange && (
        <section aria-labelledby="add-record">
          <h2 id="add-record">Add a record</h2>
          <RecordForm
            csrfToken={csrfToken}
            action={`${base}/records`}
            submitLabel="Add record"
            values={values}
            error={error}
            domain={network.dnsDomain}
          />
        </section>
      )}
    </NetworkFrame>
  );
}

export interface RecordFormProps {
  csrfToken: string;
  action: string;
  submitLabel: string;
  domain: string;
  values?: Record<string, string>;
  error?: FormError;
}

export function RecordForm({ csrfToken, action, submitLabel, domain, values = {}, error }: RecordFormProps) {
  return (
    <form method="post" action={action} class="card">
      <CsrfField token={csrfToken} />
      <InputField
        id="record-name"
        label="Name"
        error={error}
        help={`Relative to ${domain}; @ is the zone's apex.`}
        input={{ name: "name", required: true, value: values.name ?? "" }}
      />
      <SelectField id="record-type" label="Type" error={error} select={{ name: "type" }}>
        {TYPES.map((type) => (
          <option value={type} selected={values.type === type}>
            {type}
          </option>
        ))}
      </SelectField>
      <InputField id="record-value" label="Value" error={error} input={{ name: "value", required: true, value: values.value ?? "" }} />
      <InputField
        id="record-ttl"
        label="TTL in seconds (optional)"
        error={error}
        input={{ name: "ttl", inputmode: "numeric", placeholder: "300", value: values.ttl ?? "" }}
      />
      <button type="submit">{submitLabel}</button>
    </form>
  );
}

export function EditRecordPage(props: Omit<DnsProps, "records" | "nextCursor" | "canChange" | "search"> & { record: Schema<"DnsRecord"> }) {
  const { user, csrfToken, network, record, error, values } = props;
  const base = `/networks/${network.id}/dns`;
  const initial = { name: record.name, type: record.type, value: record.value, ttl: String(record.ttl) };
  return (
    <NetworkFrame user={user} csrfToken={csrfToken} network={network} tab="/dns" error={error}>
      <section aria-labelledby="edit-record">
        <h2 id="edit-record">
          Edit {record.name} {record.type}
        </h2>
        <RecordForm
          csrfToken={csrfToken}
          action={`${base}/${record.id}/edit`}
          submitLabel="Save record"
          domain={network.dnsDomain}
          values={values ?? initial}
          error={error}
        />
        <p>
          <a href={base}>Cancel</a>
        </p>
      </section>
    </NetworkFrame>
  );
}
