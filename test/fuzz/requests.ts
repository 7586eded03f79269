import fc from "fast-check";
import type { JsonSchema, Operation, Parameter } from "./openapi-model";
import { hostile, idsFor, NASTY, type Pools, validish } from "./values";

/** Who calls: resolved to a real credential at send time (the fuzzing admin may be replaced mid-run). */
export type Caller =
  | "admin"
  | "none"
  | "user"
  | "device"
  | "manager"
  | "daemon"
  | "scim"
  | "garbage"
  | "basic"
  | "doubled"
  | "empty-bearer"
  | "truncated";
const OTHERS: Caller[] = [
  "none",
  "user",
  "user",
  "device",
  "manager",
  "daemon",
  "scim",
  "garbage",
  "basic",
  "doubled",
  "empty-bearer",
  "truncated",
];

/** Mostly the caller a route is for (to get past authentication into the handler); every other kind now and then. */
export function callersFor(op: Operation): Caller[] {
  const main: Caller[] = /^\/agents\/me\b/.test(op.path)
    ? ["manager", "daemon"]
    : /^\/client\/devices\/\{id\}/.test(op.path)
      ? ["device", "admin"]
      : ["admin"];
  return [...main.flatMap((caller) => Array<Caller>(12 / main.length).fill(caller)), ...OTHERS];
}

export interface FuzzRequest {
  method: string;
  path: string;
  caller: Caller;
  headers: [string, string][];
  body?: string | Uint8Array;
}

/** Fields a client must never be able to set (mass assignment), plus prototype keys. */
export const EXTRA_FIELDS = [
  "id",
  "userId",
  "platformRole",
  "role",
  "routingRevision",
  "dnsRevision",
  "revision",
  "createdAt",
  "passwordHash",
  "keyHash",
  "credentialHash",
  "usedCount",
  "isGateway",
  "__proto__",
  "constructor",
  "networkId",
  "groupId",
  "disabledAt",
];

/** Lone surrogates cannot be percent-encoded as UTF-8; send what a browser would (U+FFFD). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const encode = (text: string) => encodeURIComponent(text.replace(LONE_SURROGATE, "\ufffd"));

/** `/networks/{id}` takes network ids (the segment before names the kind); `{userId}` takes user ids. */
const kindOf = (path: string, param: string) =>
  param === "id" ? (path.split("/{id}")[0]!.split("/").at(-1) ?? "").replace(/s$/, "") : param;

const pathValue = (pools: Pools, kind: string) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...idsFor(pools, kind)).map(encode) },
    { weight: 2, arbitrary: fc.constantFrom(...idsFor(pools, ""), "me").map(encode) },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY).map(encode) },
    // Raw: dot segments, NUL, escapes that do not decode (bad hex, overlong and surrogate UTF-8).
    {
      weight: 1,
      arbitrary: fc.constantFrom("..", "../..", "%00", "%zz", "%", "a%2Fb", "x/../../users", "%c0%af", "%ED%A0%80", "%FF", ";", "?", "#x"),
    },
    { weight: 1, arbitrary: fc.integer({ min: 65, max: 4_000 }).map((n) => "a".repeat(n)) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 30 }).map(encode) },
  );

const CURSOR_GARBAGE = [
  "!!!",
  "=",
  btoa("[1,2]"),
  btoa("{}"),
  btoa('["a"]'),
  btoa('"x"'),
  btoa('["2020","x","y"]'),
  "a".repeat(300),
  "%00",
];
const LIMIT_GARBAGE = ["-1", "0", "201", "1000", "abc", "1.5", "", " 5", "0x10", "Infinity", "1e3", "99999999999999999999"];

/** The value, or (with odds 1 : presentOdds) nothing. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, presentOdds: number) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: Math.round(presentOdds * 4), arbitrary });

function queryValue(param: Parameter, pools: Pools): fc.Arbitrary<string> {
  if (param.name === "limit")
    return fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 200 }).map(String) }, fc.constantFrom(...LIMIT_GARBAGE));
  if (param.name === "cursor") return fc.constantFrom(...CURSOR_GARBAGE);
  return fc.oneof({ weight: 4, arbitrary: validish(param.schema, pools, param.name).map((v) => String(v)) }, fc.constantFrom(...NASTY));
}

/** `?a=1&limit=-1&limit=2`: declared parameters (valid or not), unknown ones and repeats. */
function queryString(op: Operation, pools: Pools): fc.Arbitrary<string> {
  // Required parameters are there more often than not; cursor garbage now and then.
  const pairs = op.queryParams.map((param) =>
    sometimes(
      queryValue(param, pools).map((value) => [param.name, value] as const),
      param.required ? 6 : param.name === "cursor" ? 0.25 : 1,
    ),
  );
  const extra = sometimes(
    fc.tuple(fc.constantFrom("limit", "cursor", "x", "__proto__", "limit[]"), fc.constantFrom(...LIMIT_GARBAGE)),
    0.25,
  );
  return fc.tuple(fc.tuple(...pairs), extra).map(([declared, more]) => {
    const search = new URLSearchParams();
    for (const pair of [...declared, more]) if (pair) search.append(pair[0], pair[1]);
    const text = search.toString();
    return text ? `?${text}` : "";
  });
}

/** A schema-shaped body, then (usually) one mutation of it. */
function bodyValue(schema: JsonSchema, pools: Pools): fc.Arbitrary<unknown> {
  const base = validish(schema, pools);
  const properties = Object.keys(schema.properties ?? {});
  const keys = [...properties, ...EXTRA_FIELDS];
  const setHostile = fc
    .tuple(base, fc.constantFrom(...keys))
    .chain(([body, key]) => hostile(schema.properties?.[key]).map((value) => (isObject(body) ? { ...body, [key]: value } : body)));
  const dropRequired = fc.tuple(base, fc.constantFrom("", ...(schema.required ?? []))).map(([body, key]) => {
    if (!isObject(body)) return body;
    const { [key]: _dropped, ...rest } = body;
    return rest;
  });
  const massAssign = fc
    .tuple(base, fc.dictionary(fc.constantFrom(...EXTRA_FIELDS), fc.jsonValue({ maxDepth: 1 }), { minKeys: 1, maxKeys: 3 }))
    .map(([body, extra]) => (isObject(body) ? { ...body, ...extra } : body));
  return fc.oneof(
    { weight: 8, arbitrary: base },
    { weight: 4, arbitrary: setHostile },
    { weight: 1, arbitrary: dropRequired },
    { weight: 2, arbitrary: massAssign },
    { weight: 1, arbitrary: hostile(undefined) },
  );
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** What goes on the wire: usually the JSON text, sometimes broken JSON or bytes that are not UTF-8. */
function wireBody(value: unknown): fc.Arbitrary<string | Uint8Array> {
  const json = JSON.stringify(value) ?? "null";
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(json) },
    { weight: 1, arbitrary: fc.nat({ max: Math.max(json.length - 1, 0) }).map((cut) => json.slice(0, cut)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        `\ufeff${json}`,
        `${json}garbage`,
        `${json}${json}`,
        "",
        '{"a":1,"a":2}',
        '{"__proto__":{"isAdmin":true}}',
      ),
    },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }) },
  );
}

const CONTENT_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json; charset=utf-16",
  "APPLICATION/JSON",
  "application/vnd.api+json",
  "application/json, text/plain",
  "application/jsonx",
  ";;;",
  "",
];

function headers(hasBody: boolean): fc.Arbitrary<[string, string][]> {
  const contentType = hasBody
    ? fc.oneof({ weight: 6, arbitrary: fc.constant("application/json") }, { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) })
    : fc.option(fc.constantFrom("application/json", ...CONTENT_TYPES), { nil: undefined });
  const extra = fc.subarray<[string, string]>(
    [
      ["Accept", "text/plain"],
      ["X-HTTP-Method-Override", "DELETE"],
      ["Origin", "https://evil.example"],
      ["If-None-Match", '"garbage", *'],
      ["X-Request-Id", "<script>alert(1)</script>"],
      ["X-Forwarded-Host", "evil.example"],
      ["Content-Encoding", "gzip"],
    ],
    { maxLength: 3 },
  );
  // Never blank: helpers sign in without it, and must not share a throttle bucket with the fuzzer.
  const address = fc.constantFrom("198.18.0.1", "198.18.0.2", "2001:db8::1", "not-an-ip", "1.1.1.1, 2.2.2.2");
  return fc
    .tuple(contentType, extra, address)
    .map(([type, more, ip]) => [
      ...(type === undefined ? [] : [["Content-Type", type] as [string, string]]),
      ...more,
      ["CF-Connecting-IP", ip],
    ]);
}

export function requestFor(op: Operation, pools: Pools): fc.Arbitrary<FuzzRequest> {
  const params = fc.tuple(...op.pathParams.map((param) => pathValue(pools, kindOf(op.path, param.name))));
  const body = op.body
    ? bodyValue(op.body, pools)
        .chain(wireBody)
        .map((b) => b as string | Uint8Array | undefined)
    : fc.option(fc.constantFrom('{"unexpected":true}', "garbage"), { nil: undefined, freq: 4 });
  return fc
    .record({
      values: params,
      query: queryString(op, pools),
      caller: fc.constantFrom(...callersFor(op)),
      headers: headers(!!op.body),
      body,
    })
    .map(({ values, query, caller, headers: list, body: payload }) => {
      let path = op.path;
      op.pathParams.forEach((param, i) => {
        path = path.replace(`{${param.name}}`, values[i]!);
      });
      return { method: op.method, path: `${path}${query}`, caller, headers: list, body: payload };
    });
}
