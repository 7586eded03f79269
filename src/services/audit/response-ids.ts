type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === "string" && value.length <= 128 ? value : undefined);

/** Top-level first, then the first nested object (in key order) that has it: enrolment answers { device, node, ... }. */
function find(body: Json, key: string): string | undefined {
  const top = text(body[key]);
  if (top) return top;
  for (const value of Object.values(body)) {
    const nested = isObject(value) ? text(value[key]) : undefined;
    if (nested) return nested;
  }
  return undefined;
}

/**
 * The only things the audit log takes from a response body: ids. Everything else (tokens, secrets,
 * configs) is never read into the record.
 */
export function responseIds(body: unknown) {
  if (!isObject(body)) return {};
  const user = isObject(body.user) ? text(body.user.id) : undefined;
  return { id: find(body, "id"), groupId: find(body, "groupId"), networkId: find(body, "networkId"), signedInUserId: user };
}

export type ResponseIds = ReturnType<typeof responseIds>;
