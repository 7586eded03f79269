// The request bodies wgo sends, as the API defines them: client/schema.d.ts is generated from the OpenAPI
// document, which is generated from the route schemas. `npm run typecheck:cli` checks every body wgo builds
// against these (JSDoc `@satisfies`), so the CLI and the API cannot drift apart unnoticed. Types only: wgo
// still runs with Node's standard library alone.
import type { paths } from "../client/schema.js";

type ApiPath<P extends string> = `/api/v1${P}`;
type JsonRequest<Operation> = Operation extends { requestBody?: { content: { "application/json": infer Body } } } ? Body : never;

/** The JSON body of `METHOD /api/v1<P>`, with P written as the OpenAPI document writes it (`/nodes/{id}`). */
export type RequestBody<P extends string, M extends "post" | "put" | "patch"> =
  ApiPath<P> extends keyof paths ? JsonRequest<NonNullable<paths[ApiPath<P>][M]>> : never;

/**
 * Issue 28's fields (docs/nat.md), typed by hand until client/schema.d.ts carries them (it is generated from
 * the Worker's schemas, which change with the server side of issue 28): `localEndpoints`, and a peer tuple's
 * 5th element, the endpoint `wg show dump` holds for the peer. Once the schema has them, these reduce to it.
 */
type PeerTuple = [string, number, number, number, string?];
type WithNat<Body> = Omit<Body, "peerReport" | "peers"> & {
  localEndpoints?: string[];
  peerReport?: Omit<NonNullable<Body extends { peerReport?: infer P } ? P : never>, "changed"> & { changed: PeerTuple[] };
  peers?: Array<NonNullable<Body extends { peers?: infer L } ? L : never> extends Array<infer E> ? E & { endpoint?: string } : never>;
};
/** A device heartbeat's body with issue 28's fields. */
export type HeartbeatBody = WithNat<RequestBody<"/client/devices/{id}/heartbeat", "post">>;
/** A gateway agent's report body with issue 28's fields in each node's entry. */
export type AgentReportBody = Omit<RequestBody<"/agents/me/report", "post">, "nodes"> & {
  nodes: Array<WithNat<RequestBody<"/agents/me/report", "post">["nodes"][number]>>;
};
