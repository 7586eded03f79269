import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { get, post } from "../../helpers/api";
import { createGroup, createNetwork, createNode, createUser, signInAdmin, type Session } from "../../helpers/factories";
import { configureHook, newHook } from "./receiver";

/** A non-admin owner with a group, a network and one node: platform admins receive every event, so tests avoid them. */
export async function ownerWithNode() {
  const admin = await signInAdmin();
  const owner = await createUser(admin);
  const group = await createGroup(owner);
  const network = await createNetwork(owner, group.id);
  const node = await createNode(owner, network.id);
  return { admin, owner, group, network, node };
}

/** A webhook channel on a fresh receiver path, with the receiver told the secret. */
export async function webhookChannel(session: Session, events: string[]) {
  const hook = newHook();
  const created = await post("/notifications/channels", { type: "webhook", target: hook.url, events }, session.token);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await configureHook(hook.id, { secret: created.body.secret });
  return { hook, channel: created.body as { id: string; secret: string } };
}

const iso = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();

/** Time-dependent state is written straight into D1 (a heartbeat an hour ago, a clock started long ago). */
export async function setNodeSeen(nodeId: string, secondsAgo: number | null, appliedRevision?: number) {
  await env.DB.prepare("UPDATE nodes SET last_seen_at = ?, applied_routing_revision = coalesce(?, applied_routing_revision) WHERE id = ?")
    .bind(secondsAgo === null ? null : iso(secondsAgo), appliedRevision ?? null, nodeId)
    .run();
}

export async function startDriftClock(nodeId: string, secondsAgo: number) {
  await env.DB.prepare("UPDATE node_presence SET behind_since = ? WHERE node_id = ?").bind(iso(secondsAgo), nodeId).run();
}

export async function deliveriesOf(session: Session, query = "") {
  const response = await get(`/notifications/deliveries?limit=200${query}`, session.token);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.items as {
    id: string;
    status: string;
    attempts: number;
    lastError: string | null;
    event: { type: string; subjectId: string; data: any };
  }[];
}
