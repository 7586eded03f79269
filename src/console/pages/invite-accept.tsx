import { CsrfField, ErrorNotice, Page } from "../layout";
import type { ConsoleUser } from "../types";

export interface InviteAcceptProps {
  csrfToken: string;
  /** Signed in: the invite is accepted as this account (its session proves it). */
  user?: ConsoleUser;
  token: string;
  error?: { message: string; fields?: { path: string; message: string }[] };
  name?: string;
}

/** The page an invitation mail links to: join as the signed-in account, or with a password. */
export function InviteAcceptPage({ csrfToken, user, token, error, name }: InviteAcceptProps) {
  return (
    <Page title="Accept an invitation" user={user} csrfToken={csrfToken}>
      <ErrorNotice message={error?.message} fields={error?.fields} />
      <form method="post" action="/invites/accept" class="card narrow">
        <CsrfField token={csrfToken} />
        {token ? (
          <input type="hidden" name="token" value={token} />
        ) : (
          <>
            <label for="invite-token">Invite token (from your invitation mail)</label>
            <input id="invite-token" name="token" required autocomplete="off" />
          </>
        )}
        {user ? (
          <p>
            You are signed in as <strong>{user.email}</strong>: the invitation must be addressed to this account.
          </p>
        ) : (
          <>
            <p class="help" id="accept-help">
              New here: choose a password (at least 10 characters) and your account is created. You already have an account: enter its
              password. Accounts with two-factor sign-in: <a href="/sign-in">sign in</a> first, then open the link again.
            </p>
            <label for="invite-name">Your name (new accounts)</label>
            <input id="invite-name" name="name" autocomplete="name" maxlength={100} value={name ?? ""} />
            <label for="invite-password">Password</label>
            <input
              id="invite-password"
              name="password"
              type="password"
              autocomplete="new-password"
              required
              aria-describedby="accept-help"
            />
          </>
        )}
        <button type="submit">Accept invitation</button>
      </form>
    </Page>
  );
}
