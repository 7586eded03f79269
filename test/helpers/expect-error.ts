import { expect } from "vitest";

/** A raw answer from `call`/`get`/… (`{ status, body, text }`) or a typed one from `api(token).GET(…)`. */
type Answer = { status: number; body: unknown; text?: string } | { response: Response; error?: unknown };

type Refusal = { status: number; body: unknown; text?: string };

const codeFor: Record<number, string> = {
  400: "validation_error",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  412: "precondition_failed",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "VALIDATION_ERROR",
  429: "rate_limited",
};

function refusal(answer: Answer): Refusal {
  if ("response" in answer) return { status: answer.response.status, body: answer.error };
  return { status: answer.status, body: answer.body, text: answer.text };
}

/**
 * Asserts a refused request: the status, the envelope `{ error: { code, message } }` with the code that
 * status travels with (DESIGN.md), and for 422 the failing field paths when given. Returns the envelope.
 *
 *   expectError(await post("/networks", body, member.token), 403, "forbidden");
 *   expectError(result, 422, "VALIDATION_ERROR", ["cidr"]);
 */
export function expectError(answer: Answer, status: number, code: string, fields?: string[]) {
  const { status: actual, body, text } = refusal(answer);
  const shown = text ?? JSON.stringify(body);
  expect(actual, shown).toBe(status);
  // A guard against a typo in the test: the code must be the one this status travels with.
  expect(codeFor[status], `no error code for status ${status}`).toBe(code);
  expect(body, shown).toMatchObject({ error: { code, message: expect.any(String) } });
  const envelope = body as { error: { code: string; message: string; fields?: { path: string; message: string }[] } };
  if (fields) expect(envelope.error.fields?.map((field) => field.path).sort(), shown).toEqual([...fields].sort());
  return envelope.error;
}

/** expectError for a bare fetch Response (requests made with app.fetch or SELF directly): reads its JSON body. */
export async function expectErrorIn(response: Response, status: number, code: string, fields?: string[]) {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: expectError shows the text
  }
  return expectError({ status: response.status, body, text }, status, code, fields);
}

/**
 * A refused write changes nothing: reads `state` before and after `write`, asserts the refusal and that
 * the state is the same. `state` reads whatever the write would have touched (the resource, a list,
 * revision counters, or rows via env.DB).
 *
 *   await expectUnchanged(() => readNetwork(id), async () =>
 *     expectError(await patch(`/networks/${id}`, { name: "x" }, viewer.token), 403, "forbidden"));
 */
export async function expectUnchanged<T>(state: () => Promise<unknown>, write: () => Promise<T>): Promise<T> {
  const before = await state();
  const result = await write();
  expect(await state(), "a refused write changed the state").toEqual(before);
  return result;
}

/** Shorthand for one refused write whose state must not change. */
export const expectRefused = (
  state: () => Promise<unknown>,
  write: () => Promise<Answer>,
  status: number,
  code: string,
  fields?: string[],
) => expectUnchanged(state, async () => expectError(await write(), status, code, fields));
