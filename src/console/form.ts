import type { Context } from "hono";

/** A submitted form's text fields (the CSRF field already checked and dropped). */
export async function formFields(c: Pick<Context, "req">): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const [name, value] of (await c.req.formData()).entries()) {
    if (typeof value === "string" && name !== "_csrf") fields[name] = value;
  }
  return fields;
}

/** The API's refusal as one sentence for a person, and the status the page answers with. */
export function refusal(result: { error?: unknown; response: Response }) {
  const envelope = result.error as
    | { error?: { code?: string; message?: string; fields?: { path: string; message: string }[] } }
    | undefined;
  const retryAfter = result.response.headers.get("Retry-After");
  const message =
    result.response.status === 429
      ? `Too many attempts. Try again in ${retryAfter ?? "a few"} seconds.`
      : (envelope?.error?.message ?? `The server answered ${result.response.status}.`);
  return { message, fields: envelope?.error?.fields, status: result.response.status as 400 | 401 | 403 | 404 | 409 | 422 | 429 };
}
