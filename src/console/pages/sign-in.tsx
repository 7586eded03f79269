import { CsrfField, ErrorNotice, Page } from "../layout";

export interface SignInProps {
  csrfToken: string;
  error?: string;
  email?: string;
  /** OAuth providers the deployment configured (their buttons only). */
  providers: { id: string; label: string }[];
}

export function SignInPage({ csrfToken, error, email, providers }: SignInProps) {
  return (
    <Page title="Sign in" csrfToken={csrfToken}>
      <ErrorNotice message={error} />
      <form method="post" action="/sign-in" class="card narrow">
        <CsrfField token={csrfToken} />
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required value={email ?? ""} />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">Sign in</button>
      </form>
      {providers.length > 0 && (
        <section class="card narrow" aria-labelledby="oauth-heading">
          <h2 id="oauth-heading">Or sign in with</h2>
          <ul class="buttons">
            {providers.map((provider) => (
              <li>
                <a class="button" href={`/sign-in/oauth/${provider.id}`}>
                  {provider.label}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      <p class="narrow">
        <a href="/password-reset">Forgot your password?</a> · Invited? Open the link in your invitation mail.
      </p>
    </Page>
  );
}

export function MfaPage({ csrfToken, error }: { csrfToken: string; error?: string }) {
  return (
    <Page title="Two-factor code" csrfToken={csrfToken}>
      <ErrorNotice message={error} />
      <form method="post" action="/sign-in/mfa" class="card narrow">
        <CsrfField token={csrfToken} />
        <label for="code">Code from your authenticator app, or a recovery code</label>
        <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required autofocus />
        <button type="submit">Verify</button>
      </form>
      <p class="narrow">
        <a href="/sign-in">Start over</a>
      </p>
    </Page>
  );
}
