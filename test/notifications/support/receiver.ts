import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, inject, vi } from "vitest";
import { unique } from "../../helpers/factories";
import worker from "../../../src/index";
import type {} from "./webhook-receiver.global";

export interface Received {
  headers: Record<string, string>;
  body: string;
  verified: boolean;
  reason?: string;
  status: number;
}

const base = () => inject("webhookReceiverUrl");

/** A fresh path on the Node receiver, and its URL for a webhook channel. */
export function newHook() {
  const id = unique("hook");
  return { id, url: `${base()}/hooks/${id}` };
}

/** Tell the receiver the channel's secret (it verifies with it) and, optionally, scripted answers. */
export async function configureHook(id: string, settings: { secret?: string; responses?: (number | "hang")[] }) {
  const response = await fetch(`${base()}/_control/${id}`, { method: "PUT", body: JSON.stringify(settings) });
  expect(response.status).toBe(204);
}

export async function received(id: string): Promise<Received[]> {
  const response = await fetch(`${base()}/_control/${id}`);
  return ((await response.json()) as { received: Received[] }).received;
}

/** Waits for background work (waitUntil) to reach the receiver. */
export const receivedAtLeast = (id: string, count: number) =>
  vi.waitFor(
    async () => {
      const list = await received(id);
      expect(list.length).toBeGreaterThanOrEqual(count);
      return list;
    },
    { timeout: 10_000, interval: 100 },
  );

/** One run of the Worker's Cron Trigger: the entry point's own scheduled handler, awaited with its waitUntil work. */
export async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: new Date() }), env, ctx);
  await waitOnExecutionContext(ctx);
}
