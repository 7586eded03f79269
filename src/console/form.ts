import { type FieldMap, humanize, type Names, pathInSentence, placeOf, type SentenceFields } from "./humanize";
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

/** A field's refusal: the API's path and sentence, and where the form shows it (label, field id) when known. */
export interface FieldRefusal {
  path: string;
  message: string;
  label?: string;
  field?: string;
}

export interface FormError {
  message: string;
  fields?: FieldRefusal[];
}

/** What a page knows to put a refusal in a person's words: names by id, the path as submitted, its fields. */
export interface Wording {
  names?: Names;
  path?: readonly string[];
  fields?: FieldMap;
  /** Field-less sentences that are about one field of this form (humanize.ts SentenceFields). */
  sentences?: SentenceFields;
}

/** The refusal in the page's words (humanize.ts), each field error placed at its form field when known. */
export function worded(error: FormError, { names, path, fields: map = {}, sentences = [] }: Wording): FormError {
  const message = humanize(error.message, names, path);
  const fields: FieldRefusal[] = (error.fields ?? []).map((field) => {
    const place = placeOf(field.path, map);
    return { path: field.path, message: humanize(field.message, names, path), ...place };
  });
  const named = pathInSentence(error.message) ?? sentences.find(([pattern]) => pattern.test(error.message))?.[1];
  const place = named && placeOf(named, map);
  if (fields.length === 0 && place) fields.push({ path: named, message, ...place });
  return { message, fields };
}

/** The refusals that belong beside one form field. */
export const errorsAt = (error: FormError | undefined, field: string) =>
  (error?.fields ?? []).filter((refusal) => refusal.field === field).map((refusal) => refusal.message);
