import { z } from "@hono/zod-openapi";

/** Response headers the document names, registered once as components/headers and referenced by $ref. */
export const HEADER_COMPONENTS = {
  RequestId: {
    description:
      "Every response carries it: a well-formed incoming X-Request-Id (8-64 of A-Z a-z 0-9 . _ -) is echoed so traces join up; otherwise one is minted (req_…). Quote it when reporting a problem.",
    schema: { type: "string", example: "req_01jf3z6q8k2m4n5p6r7s8t9v0w" },
  },
  ETag: {
    description: "A strong entity tag over the exact representation; send it back in If-None-Match to poll cheaply (304 while unchanged).",
    schema: { type: "string", example: '"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"' },
  },
  RetryAfter: {
    description: "Seconds to wait before trying again.",
    schema: { type: "integer", minimum: 0, example: 60 },
  },
  WwwAuthenticate: {
    description: 'The Bearer challenge: `Bearer realm="api"`.',
    schema: { type: "string", example: 'Bearer realm="api"' },
  },
} as const;

const ref = (name: keyof typeof HEADER_COMPONENTS) => ({ $ref: `#/components/headers/${name}` });

export const HEADER_REFS = {
  requestId: ref("RequestId"),
  etag: ref("ETag"),
  retryAfter: ref("RetryAfter"),
  wwwAuthenticate: ref("WwwAuthenticate"),
};

/**
 * The request side of ETags, for `request.headers`. Optional and unconstrained, as the handlers read it
 * (RFC 9110 list syntax: one or more entity tags, or `*`): it never fails validation. Lower case, because
 * Hono validates headers by their lower-case names (and header names are case-insensitive anyway).
 */
export const IfNoneMatchHeader = z.object({
  "if-none-match": z.string().optional().openapi({
    description: "The ETag of the representation the client holds: 304 (no body) while it is still current.",
    example: '"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"',
  }),
});

/** A 304: the ETag the client sent is still current. */
export const notModified = {
  description: "Not modified: the representation named by If-None-Match is still current (no body)",
  headers: { ETag: HEADER_REFS.etag },
} as const;
