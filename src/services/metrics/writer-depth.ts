import type { Env } from "../../lib/env";
import { networkWriter } from "../../objects/network/client";

/** A writer is asked for its queue when its network changed within this window... */
export const WRITER_SAMPLE_WINDOW_SECONDS = 300;
/** ...and at most this many writers, the most recently written first: a scrape's fan-out is bounded. */
export const WRITER_SAMPLE_LIMIT = 25;

export interface WriterDepth {
  networkId: string;
  queueDepth: number;
}

/**
 * The queue depth of the writers that can have one. A queue only fills while writes arrive, and every
 * routing or DNS write moves its network's updatedAt (the revision bump), so the networks written in the
 * last few minutes are where a backlog can be; asking every network's writer would wake thousands of
 * idle objects per scrape. A writer that does not answer is left out (the scrape must not fail for it).
 */
export async function sampleWriterDepths(
  env: Env,
  networks: readonly { id: string; updatedAt: string }[],
  now: Date,
): Promise<WriterDepth[]> {
  const since = new Date(now.getTime() - WRITER_SAMPLE_WINDOW_SECONDS * 1000).toISOString();
  const recent = networks
    .filter((network) => network.updatedAt >= since)
    .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0))
    .slice(0, WRITER_SAMPLE_LIMIT);
  const answers = await Promise.allSettled(
    recent.map(async (network) => ({ networkId: network.id, queueDepth: (await networkWriter(env, network.id).stats()).queueDepth })),
  );
  return answers.flatMap((answer) => (answer.status === "fulfilled" ? [answer.value] : []));
}
