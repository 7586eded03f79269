import type { Child } from "hono/jsx";
import { CSRF_FIELD } from "./csrf";
import type { ConsoleUser } from "./types";

export interface PageProps {
  title: string;
  user?: ConsoleUser;
  csrfToken: string;
  /** The nav entry to mark as the current page. */
  section?: string;
  children?: Child;
}

const SECTIONS = [
  { href: "/networks", label: "Networks" },
  { href: "/groups", label: "Groups" },
  { href: "/devices", label: "Devices" },
  { href: "/tunnels", label: "Tunnels" },
  { href: "/notifications", label: "Notifications" },
  { href: "/audit", label: "Audit log" },
];
const ADMIN_SECTIONS = [{ href: "/admin", label: "Admin" }];

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
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <a class="brand" href="/">
            wg overlay
          </a>
          {user && (
            <nav aria-label="Sections">
              <ul>
                {sections.map((entry) => (
                  <li>
                    <a href={entry.href} aria-current={entry.href === section ? "page" : undefined}>
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
              <span class="who">{user.email}</span>
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

/** A refusal from the API, shown where the form is: role="alert" so screen readers announce it. */
export function ErrorNotice({ message, fields }: { message?: string; fields?: { path: string; message: string }[] }) {
  if (!message) return null;
  return (
    <div class="notice error" role="alert">
      <p>{message}</p>
      {fields && fields.length > 0 && (
        <ul>
          {fields.map((field) => (
            <li>
              <code>{field.path}</code>: {field.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What a list shows when it has nothing yet: says so, and what to do next. */
export const EmptyState = ({ children }: { children: Child }) => <p class="empty">{children}</p>;
