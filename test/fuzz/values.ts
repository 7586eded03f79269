import fc from "fast-check";
import type { JsonSchema } from "./openapi-model";

/** Real ids (by kind) and secrets of the fixture world: requests that use them reach the handlers. */
export interface Pools {
  ids: Record<string, string[]>;
  secrets: string[];
}

/** The world's ids of the kind a field or path segment names; any id for names we cannot place. */
export function idsFor(pools: Pools, name: string): string[] {
  const kind = Object.keys(pools.ids).find((k) => name.toLowerCase().startsWith(k.toLowerCase()));
  return kind ? pools.ids[kind]! : Object.values(pools.ids).flat();
}

/** Strings that have broken parsers, query builders and templates elsewhere. */
export const NASTY = [
  "",
  " ",
  "NaN",
  "Infinity",
  "-Infinity",
  "1e999",
  "-0",
  "0x1F",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "../../etc/passwd",
  "..%2F..%2F",
  "%00",
  "\u0000",
  "\u202e",
  "🦄",
  "\ud800",
  "e\u0301",
  "' OR 1=1 --",
  '"; drop table users; --',
  "<script>alert(1)</script>",
  "$" + "{7*7}",
  "{{7*7}}",
  "__proto__",
  "constructor",
  "10.0.0.0/33",
  "::/0",
  "0.0.0.0/0",
  "::ffff:10.0.0.1/128",
  "169.254.169.254",
  "http://127.0.0.1:1/",
  "a".repeat(300),
];

const wgKey = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => btoa(String.fromCharCode(...bytes)));
const octet = fc.integer({ min: 0, max: 255 });
const cidr = fc.oneof(
  fc.tuple(octet, octet, fc.integer({ min: 8, max: 32 })).map(([a, b, len]) => `10.${a}.${b}.0/${len}`),
  fc.tuple(octet, fc.integer({ min: 0, max: 32 })).map(([a, len]) => `192.168.${a}.0/${len}`),
  fc.integer({ min: 32, max: 128 }).map((len) => `fd00:${len.toString(16)}::/${len}`),
);
const ipv4 = fc.tuple(octet, octet).map(([a, b]) => `10.77.${a}.${b}`);
const email = fc.stringMatching(/^[a-z0-9.+-]{1,20}$/).map((local) => `${local}@example.com`);
const isoDate = fc.date({ min: new Date(0), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString());

/** Values by property name: what a real client would send for that field. */
function hinted(name: string, pools: Pools): fc.Arbitrary<unknown> | undefined {
  const ids = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...idsFor(pools, name)) }, fc.constantFrom(...idsFor(pools, "")));
  if (/publicKey$/i.test(name)) return wgKey;
  if (/cidr$/i.test(name)) return cidr;
  if (name === "address" || name === "value") return ipv4;
  if (/email$/i.test(name) || name === "to") return email;
  if (/At$/.test(name)) return fc.option(isoDate, { nil: null });
  if (/(Id|Ids|Path)$/.test(name) || name === "id") return ids;
  if (name === "name") return fc.oneof(fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?$/), fc.string({ maxLength: 40 }));
  if (/(token|Token|enrolmentKey|code)$/.test(name)) return fc.oneof(fc.constantFrom(...pools.secrets), fc.string({ maxLength: 40 }));
  return undefined;
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const maxLength = Math.min(schema.maxLength ?? 40, 40);
  const minLength = Math.min(schema.minLength ?? 0, maxLength);
  if (schema.format === "email") return email;
  if (schema.format === "date-time") return isoDate;
  if (schema.pattern) {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((text) => text.length >= minLength && text.length <= (schema.maxLength ?? 1e4));
  }
  return fc.string({ minLength, maxLength });
}

/** Something close to what the schema accepts (it may still fail domain rules: that is the point). */
export function validish(schema: JsonSchema | undefined, pools: Pools, name = "", depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.constant(null);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((choice) => validish(choice, pools, name, depth + 1)));
  if (Array.isArray(schema.type)) {
    return fc.oneof(
      ...schema.type.map((type) => (type === "null" ? fc.constant(null) : validish({ ...schema, type }, pools, name, depth + 1))),
    );
  }
  const hint = schema.type === "string" || (schema.type === "array" && /(Ids|Path)$/.test(name)) ? hinted(name, pools) : undefined;
  if (hint && schema.type === "string") return hint;
  switch (schema.type) {
    case "string":
      return stringOf(schema);
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: Math.min(schema.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER) });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(hint ?? validish(schema.items, pools, name, depth + 1), { maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case "object": {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, validish(value, pools, key, depth + 1)]));
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value of another JSON type, or one at or past the schema's bounds. */
export function hostile(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const bounds = [schema?.minimum, schema?.maximum].filter((n): n is number => typeof n === "number").flatMap((n) => [n - 1, n, n + 1]);
  return fc.oneof(
    fc.constantFrom(...NASTY),
    fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, -0, 2 ** 53, -(2 ** 53), 1e308, -1e308, [], {}, [null], { "": "" }),
    fc.constantFrom<unknown>(...(bounds.length > 0 ? bounds : [0])),
    fc.string({ unit: "binary", maxLength: 64 }),
    fc.integer({ min: 1_000, max: 60_000 }).map((n) => "é".repeat(n / 2)),
    fc.integer({ min: 10, max: 3_000 }).map((n) => nested(n)),
    fc.jsonValue({ maxDepth: 3 }),
  );
}

/** `[[[...]]]` n deep: parsers that recurse per level must not fall over. */
export const nested = (depth: number): unknown => JSON.parse("[".repeat(depth) + "]".repeat(depth));
