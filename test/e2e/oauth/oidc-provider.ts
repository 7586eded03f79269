// A real OpenID Connect provider for the OAuth tests: panva's `oidc-provider` (the certified
// implementation) in this Node process, with its development login and consent pages. The tests drive
// those pages over HTTP the way a browser would, so every leg (discovery, authorize, token, userinfo)
// runs against a provider we did not write.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface TestAccount {
  email: string;
  emailVerified: boolean;
  /** The `groups` claim (with the profile scope, so it travels in userinfo as many providers send it); none when unset. */
  groups?: string[];
}

export interface LocalProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by login name; the dev login page takes any password. */
  accounts: Map<string, TestAccount>;
  /** Registers the client once the Worker's callback URL is known. */
  /** The redirect URIs the client registers (the API's callback, the console's). */
  configure(...redirectUris: string[]): void;
  stop(): Promise<void>;
}

/** Listens first (the issuer URL must be known before the Worker starts), configures later. */
export async function startProvider(): Promise<LocalProvider> {
  const server: Server = createServer((_request, response) => {
    response.statusCode = 503;
    response.end("provider not configured yet");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, TestAccount>();
  const clientId = "wg-overlay-e2e";
  const clientSecret = `secret-${crypto.randomUUID()}`;

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    configure(...redirectUris) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: redirectUris,
            grant_types: ["authorization_code"],
            response_types: ["code"],
            token_endpoint_auth_method: "client_secret_basic",
          },
        ],
        claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["groups"] },
        cookies: { keys: [crypto.randomUUID()] },
        features: { devInteractions: { enabled: true } },
        async findAccount(_ctx, id) {
          const account = accounts.get(id);
          if (!account) return undefined;
          const groups = account.groups ? { groups: account.groups } : {};
          return {
            accountId: id,
            claims: async () => ({ sub: id, email: account.email, email_verified: account.emailVerified, ...groups }),
          };
        },
      });
      server.removeAllListeners("request");
      server.on("request", provider.callback());
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Just enough of a browser: a cookie jar (name → value, every path) and manual redirects. */
export class Browser {
  private readonly cookies = new Map<string, string>();

  private remember(response: Response) {
    // Node's fetch has getSetCookie; the Workers types this repo compiles against do not declare it.
    for (const line of (response.headers as unknown as { getSetCookie(): string[] }).getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair!.indexOf("=");
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  cookie(name: string) {
    return this.cookies.get(name);
  }

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    let body: string | undefined;
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(url, { method: init.method ?? "GET", headers, body, redirect: "manual" });
    this.remember(response);
    return response;
  }
}

/**
 * From the provider's authorization URL to the redirect back to `callbackPrefix`: signs in as `login` on
 * the dev login page, grants consent, and returns the callback URL (code + state) without calling it.
 */
export async function authorizeAtProvider(
  browser: Browser,
  authorizationUrl: string,
  login: string,
  callbackPrefix: string,
): Promise<string> {
  let url = authorizationUrl;
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(callbackPrefix)) return url;
    const response = await browser.request(url);
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get("location")!, url).toString();
      continue;
    }
    const page = await response.text();
    if (response.status !== 200) throw new Error(`provider answered ${response.status} at ${url}: ${page.slice(0, 500)}`);
    // A dev interaction page: submit the login form, or the consent form.
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (prompt !== "login" && prompt !== "consent") throw new Error(`unexpected provider page at ${url}: ${page.slice(0, 500)}`);
    const submitted = await browser.request(url, {
      method: "POST",
      form: prompt === "login" ? { prompt, login, password: "any" } : { prompt },
    });
    if (!submitted.headers.get("location"))
      throw new Error(`provider answered ${submitted.status} to ${prompt}: ${(await submitted.text()).slice(0, 500)}`);
    url = new URL(submitted.headers.get("location")!, url).toString();
  }
  throw new Error("too many redirects at the provider");
}
