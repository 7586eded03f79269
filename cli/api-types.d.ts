// The request bodies wgo sends, as the API defines them: client/schema.d.ts is generated from the OpenAPI
// document, which is generated from the route schemas. `npm run typecheck:cli` checks every body wgo builds
// against these (JSDoc `@satisfies`), so the CLI and the API cannot drift apart unnoticed. Types only: wgo
// still runs with Node's standard library alone.
import type { components, paths } from "../client/schema.js";

type ApiPath<P extends string> = `/api/v1${P}`;
type JsonRequest<Operation> = Operation extends { requestBody?: { content: { "application/json": infer Body } } } ? Body : never;

/** The JSON body of `METHOD /api/v1<P>`, with P written as the OpenAPI document writes it (`/nodes/{id}`). */
export type RequestBody<P extends string, M extends "post" | "put" | "patch"> =
  ApiPath<P> extends keyof paths ? JsonRequest<NonNullable<paths[ApiPath<P>][M]>> : never;

/** A device heartbeat's body (with issue 28's localEndpoints and peer endpoints: docs/nat.md). */
export type HeartbeatBody = RequestBody<"/client/devices/{id}/heartbeat", "post">;
/** A gateway agent's report body. */
export type AgentReportBody = RequestBody<"/agents/me/report", "post">;

/** GET /nodes/{id}/paths: how a node reaches each peer (docs/nat.md), for `wgo status`. */
export type NodePaths = components["schemas"]["NodePaths"];
