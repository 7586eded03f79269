/**
 * Request-body fields with a zod `.default()` are optional on input: the route schemas document them as
 * not required, with `default`. Generators read `default` on a shared component schema as "always present"
 * (openapi-typescript's defaultNonNullable, on by default, types such a field as required), because for a
 * response that is what it means. So in schemas that only request bodies use, the default moves into the
 * field's description ("Default: …"): every generator then sees an optional field, and people still read
 * the value the server applies. Schemas a response uses keep `default` (none does today: responses are
 * documented with their own output-shaped schemas, e.g. AdminSettingsStored).
 */

type Schema = {
  $ref?: string;
  default?: unknown;
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: Schema | boolean;
};
type Media = { schema?: Schema };
type Operation = {
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
  parameters?: unknown[];
};
type Document = { paths?: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };

const refName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);

function collectRefs(node: unknown, into: Set<string>) {
  if (!node || typeof node !== "object") return;
  const ref = (node as Schema).$ref;
  if (typeof ref === "string") into.add(refName(ref));
  for (const value of Object.values(node)) collectRefs(value, into);
}

/** The component schemas reachable from `roots`, following $refs through other components. */
function reachable(roots: unknown[], components: Record<string, Schema>): Set<string> {
  const seen = new Set<string>();
  const pending = new Set<string>();
  for (const root of roots) collectRefs(root, pending);
  while (pending.size > 0) {
    const [name] = pending;
    pending.delete(name as string);
    if (seen.has(name as string)) continue;
    seen.add(name as string);
    const next = new Set<string>();
    collectRefs(components[name as string], next);
    for (const n of next) if (!seen.has(n)) pending.add(n);
  }
  return seen;
}

function describeDefaults(schema: Schema | undefined) {
  if (!schema || typeof schema !== "object" || schema.$ref) return;
  for (const property of Object.values(schema.properties ?? {})) {
    if (property && "default" in property) {
      const sentence = `Default: ${JSON.stringify(property.default)}.`;
      property.description = property.description ? `${property.description.replace(/\.?$/, ".")} ${sentence}` : sentence;
      delete property.default;
    }
    describeDefaults(property);
  }
  for (const child of [schema.items, ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) describeDefaults(child);
  if (typeof schema.additionalProperties === "object") describeDefaults(schema.additionalProperties);
}

export function requestDefaultsAsDescriptions<D extends object>(generated: D): D {
  const doc = generated as Document;
  const components = doc.components?.schemas ?? {};
  const operations = Object.values(doc.paths ?? {}).flatMap((byMethod) => Object.values(byMethod));
  const bodies = operations.flatMap((op) => Object.values(op.requestBody?.content ?? {}).map((media) => media.schema));
  const outputs = reachable(
    operations.flatMap((op) => [op.responses, op.parameters]),
    components,
  );
  for (const name of reachable(bodies, components)) if (!outputs.has(name)) describeDefaults(components[name]);
  for (const schema of bodies) describeDefaults(schema);
  return generated;
}
