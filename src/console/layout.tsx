import type { Child } from "hono/jsx";
import { CSRF_FIELD } from "./csrf";
import type { FieldRefusal } from "./form";
import { Icon, type IconName } from "./icons";
import type { ConsoleUser } from "./types";

export interface PageProps {
  title: string;
  user?: ConsoleUser;
  csrfToken: string;
  /** The nav entry to mark as the current page. */
  section?: string;
  children?: Child;
}

const SECTIONS: { href: string; label: string; icon: IconName }[] = [
  { href: "/networks", label: "Networks", icon: "networks" },
  { href: "/groups", label: "Groups", icon: "groups" },
  { href: "/devices", label: "Devices", icon: "devices" },
  { href: "/tunnels", label: "Tunnels", icon: "tunnels" },
  { href: "/notifications", label: "Notifications", icon: "notifications" },
  { href: "/audit", label: "Audit log", icon: "audit" },
];
const ADMIN_SECTIONS: typeof SECTIONS = [{ href: "/admin", label: "Admin", icon: "admin" }];

/** The hidden field every console form carries (csrf.ts). */
export const CsrfField = ({ token }: { token: string }) => <input type="hidden" name={CSRF_FIELD} value={token} />;

/** The page shell: skip link, header with navigation and sign-out, one <main>. */
export function Page({ title, user, csrfToken, section, children }: PageProps) {
  const sections = user?.platformRole === "admin" ? [...SECTIONS, ...ADMIN_SECTIONS] : SECTIONS;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · WireGuard overlay console`}</title>
        <link rel="stylesheet" href="/assets/console.css" />
        <script src="/assets/console.js" defer />
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <a class="brand" href="/">
            <Icon name="brand" />
            wg overlay
          </a>
          {user && (
            <nav aria-label="Sections">
              <ul>
                {sections.map((entry) => (
                  <li>
                    <a href={entry.href} aria-current={entry.href === section ? "page" : undefined}>
                      <Icon name={entry.icon} />
                      {entry.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          {user && (
            <form method="post" action="/sign-out" class="signout">
              <CsrfField token={csrfToken} />
              <span class="who" title={user.email}>
                {user.email}
              </span>
              <button type="submit">Sign out</button>
            </form>
          )}
        </header>
        <main id="main" tabindex={-1}>
          <h1>{title}</h1>
          {children}
        </main>
      </body>
    </html>
  );
}

/**
 * A refusal from the API, shown where the form is: role="alert" so screen readers announce it. Field errors the
 * form places beside their field (FieldError) are listed here as links to that field, in the form's words.
 */
export function ErrorNotice({ message, fields }: { message?: string; fields?: FieldRefusal[] }) {
  if (!message) return null;
  const listed = (fields ?? []).filter((field) => field.message !== message);
  return (
    <div class="notice error" role="alert">
      <p>{message}</p>
      {listed.length > 0 && (
        <ul>
          {listed.map((field) => (
            <li>
              {field.field ? <a href={`#${field.field}`}>{field.label ?? field.path}</a> : <code>{field.path}</code>}: {field.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The refusal of one field, beside it (the field names it in aria-describedby: `${field}-error`). */
export function FieldError({ field, messages }: { field: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <p class="field-error" id={`${field}-error`}>
      {messages.join(" ")}
    </p>
  );
}

/** The attributes of a field with a refusal beside it (aria-invalid, and the error read after its help). */
export const invalidAttrs = (field: string, messages: string[], help?: string) =>
  messages.length > 0
    ? { "aria-invalid": "true" as const, "aria-describedby": [help, `${field}-error`].filter(Boolean).join(" ") }
    : help
      ? { "aria-describedby": help }
      : {};

/** What a list shows when it has nothing yet: says so, and what to do next. */
export const EmptyState = ({ children }: { children: Child }) => <p class="empty">{children}</p>;
