import { conflict } from "./errors";

/** D1 reports constraint failures as errors whose text (or cause's text, through drizzle) names the constraint. */
function messages(error: unknown): string {
  const parts: string[] = [];
  for (let current = error as { message?: string; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (current.message) parts.push(current.message);
    if (parts.length > 5) break;
  }
  return parts.join(" | ");
}

export const isUniqueViolation = (error: unknown) => /UNIQUE constraint failed/i.test(messages(error));
/** The authority guard's CHECK refused the batch (db/schema/authority-guard.ts): the authority no longer held. */
export const isGuardRefusal = (error: unknown) => /authority_held/.test(messages(error));
export const isForeignKeyViolation = (error: unknown) => /FOREIGN KEY constraint failed/i.test(messages(error));

/** Inventory names are unique; the constraint answers races a pre-check would miss (409, never a 500). */
export async function uniquely<T>(what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A ${what} with this name already exists`);
    if (isForeignKeyViolation(error)) throw conflict(`The ${what} is still referenced`);
    throw error;
  }
}
