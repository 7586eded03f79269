import { exports } from "cloudflare:workers";

const ORIGIN = "https://console.test";

/** Every Set-Cookie line (workerd has Headers.getSetCookie; the workers-types in use do not declare it). */
export const setCookiesOf = (headers: Headers) => (headers as unknown as { getSetCookie(): string[] }).getSetCookie();

export interface ConsoleAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** Where a redirect points (path), or null. */
  location: string | null;
}

/**
 * A browser stand-in for console tests in workerd: keeps the cookies the console sets (as a browser would for
 * this origin) and sends what a browser's same-origin form submission sends (Sec-Fetch-Site, Origin, the
 * hidden _csrf field). The real-browser tests (Chromium) are in test/e2e/console.
 */
export class ConsoleAgent {
  readonly cookies = new Map<string, string>();

  async get(path: string, headers: Record<string, string> = {}) {
    return this.request(path, { method: "GET", headers });
  }

  /** A same-origin form POST carrying the CSRF token from the cookie, unless `fields._csrf` overrides it. */
  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    const body = new URLSearchParams({ _csrf: this.cookies.get("__Host-wgo_csrf") ?? "", ...fields });
    return this.request(path, {
      method: "POST",
      body,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", Origin: ORIGIN, ...headers },
    });
  }

  async request(path: string, init: { method: string; headers: Record<string, string>; body?: BodyInit }) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const headers = new Headers(init.headers);
    if (cookie) headers.set("Cookie", cookie);
    const response = await exports.default.fetch(new Request(`${ORIGIN}${path}`, { ...init, headers, redirect: "manual" }));
    for (const line of setCookiesOf(response.headers)) this.keep(line);
    const location = response.headers.get("Location");
    return { status: response.status, headers: response.headers, text: await response.text(), location } satisfies ConsoleAnswer;
  }

  private keep(setCookie: string) {
    const [pair = ""] = setCookie.split(";");
    const separator = pair.indexOf("=");
    const name = pair.slice(0, separator).trim();
    const value = pair.slice(separator + 1).trim();
    if (/max-age=0/i.test(setCookie) || value === "") this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** A fresh agent that has loaded the sign-in page (so it holds a CSRF cookie) and signed in. */
export async function signedInAgent(email: string, password: string) {
  const agent = new ConsoleAgent();
  await agent.get("/sign-in");
  const answer = await agent.post("/sign-in", { email, password });
  if (answer.status !== 303 || answer.location !== "/networks")
    throw new Error(`console sign-in: ${answer.status} ${answer.text.slice(0, 300)}`);
  return agent;
}
