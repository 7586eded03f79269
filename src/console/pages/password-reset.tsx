import { CsrfField, ErrorNotice, Page } from "../layout";

type Refusal = { message: string; fields?: { path: string; message: string }[] };

/** Step 1: ask for a reset link by email. After sending, the same page says what happens next. */
export function ResetRequestPage({
  csrfToken,
  sent,
  error,
  email,
}: {
  csrfToken: string;
  sent?: boolean;
  error?: Refusal;
  email?: string;
}) {
  return (
    <Page title="Reset your password" csrfToken={csrfToken}>
      {sent && (
        <p class="notice" role="status">
          If an account exists for that address, a reset link is on its way. It works once and expires soon.
        </p>
      )}
      <ErrorNotice message={error?.message} fields={error?.fields} />
      <form method="post" action="/password-reset" class="card narrow">
        <CsrfField token={csrfToken} />
        <label for="reset-email">Email</label>
        <input id="reset-email" name="email" type="email" autocomplete="username" required value={email ?? ""} />
        <button type="submit">Send reset link</button>
      </form>
      <p class="narrow">
        <a href="/sign-in">Back to sign-in</a>
      </p>
    </Page>
  );
}

/** Step 2 (the mailed link): choose the new password. */
export function ResetConfirmPage({ csrfToken, token, error }: { csrfToken: string; token: string; error?: Refusal }) {
  return (
    <Page title="Choose a new password" csrfToken={csrfToken}>
      <ErrorNotice message={error?.message} fields={error?.fields} />
      <form method="post" action="/password-reset/confirm" class="card narrow">
        <CsrfField token={csrfToken} />
        {token ? (
          <input type="hidden" name="token" value={token} />
        ) : (
          <>
            <label for="reset-token">Reset token (from the mail)</label>
            <input id="reset-token" name="token" required autocomplete="off" />
          </>
        )}
        <label for="new-password">New password</label>
        <input id="new-password" name="newPassword" type="password" autocomplete="new-password" minlength={10} required />
        <label for="repeat-password">New password again</label>
        <input id="repeat-password" name="repeatPassword" type="password" autocomplete="new-password" minlength={10} required />
        <p class="help">At least 10 characters. Every session of the account ends: sign in again afterwards.</p>
        <button type="submit">Set new password</button>
      </form>
    </Page>
  );
}

export function ResetDonePage({ csrfToken }: { csrfToken: string }) {
  return (
    <Page title="Password changed" csrfToken={csrfToken}>
      <p role="status">Your password is changed and every session of the account has ended.</p>
      <p>
        <a class="button" href="/sign-in">
          Sign in
        </a>
      </p>
    </Page>
  );
}
