import type { Context } from "hono";
import { refusal } from "./form";
import { ErrorNotice, Page } from "./layout";
import type { ConsoleEnv } from "./types";

/** An API answer a page cannot be drawn without was refused: carries the API's sentence and status. */
export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * The body of a successful API answer, or an ApiFailure with the API's own message (a viewer asking for
 * an owner-only list sees "Forbidden: …", not a stack). Routers that load with it use `onFailure`.
 */
export function need<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data !== undefined && result.response.ok) return result.data;
  const { message, status } = refusal(result);
  throw new ApiFailure(message, status);
}

/** The error state of a page: a plain page with the API's message (or a generic one), never a stack trace. */
export function onFailure<E extends ConsoleEnv>(error: Error, c: Context<E>) {
  const failure = error instanceof ApiFailure ? error : undefined;
  if (!failure) console.error("console page failed", error);
  const status = failure?.status ?? 500;
  const title = status === 403 ? "Not allowed" : status === 404 ? "Not found" : "Something went wrong";
  return c.html(
    <Page title={title} user={c.var.user} csrfToken={c.var.csrfToken}>
      <ErrorNotice message={failure?.message ?? "The page could not be loaded. Try again in a moment."} />
      <p>
        <a href="/">Back to the console</a>
      </p>
    </Page>,
    status as 400,
  );
}
