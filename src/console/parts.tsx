import type { Child } from "hono/jsx";
import { CsrfField } from "./layout";

/**
 * A secret the API shows once (enrolment key, webhook secret, agent token): rendered in the answer to the
 * POST that created it (not after a redirect, which would need it stored somewhere), with a copy button.
 */
export function SecretOnce({ id, label, value, children }: { id: string; label: string; value: string; children?: Child }) {
  return (
    <section class="notice" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{label}</h2>
      <p>
        <strong>Copy it now: it is shown only this once.</strong>
      </p>
      <pre>
        <code id={id}>{value}</code>
      </pre>
      <button type="button" class="secondary" data-copy={id}>
        Copy {label.toLowerCase()}
      </button>
      {children}
    </section>
  );
}

/** One button that POSTs (revoke, remove, retry, test): a form of its own, so it works without script. */
export function PostButton({
  action,
  csrfToken,
  label,
  name,
  danger,
  fields = {},
}: {
  action: string;
  csrfToken: string;
  label: string;
  /** The accessible name when the label repeats on every row ("Revoke laptop-1"). */
  name?: string;
  danger?: boolean;
  fields?: Record<string, string>;
}) {
  return (
    <form method="post" action={action}>
      <CsrfField token={csrfToken} />
      {Object.entries(fields).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={danger ? "danger" : "secondary"} aria-label={name}>
        {label}
      </button>
    </form>
  );
}

/** The link to the next page of a cursor-paged list, keeping the page's filters. */
export function NextPage({ path, query, cursor }: { path: string; query: Record<string, string | undefined>; cursor: string | null }) {
  if (!cursor) return null;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  params.set("cursor", cursor);
  return (
    <p>
      <a href={`${path}?${params}`}>Next page</a>
    </p>
  );
}

/** The answer to a create that worked (after its redirect): role="status", so it is announced but not urgent. */
export const Success = ({ children }: { children: Child }) => (
  <p class="notice success" role="status">
    {children}
  </p>
);
