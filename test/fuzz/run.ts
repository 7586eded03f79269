import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { buildWorld, ensureCallers, type World } from "./fixtures";
import { fetchDocument, label, operations, type Operation } from "./openapi-model";
import { sendAndCheck } from "./oracle";
import { requestFor } from "./requests";

/** Defaults keep the three fuzz files inside the CI budget; FUZZ_RUNS=500 for a long local run. */
const DEFAULT_RUNS = 25;
const DEFAULT_SEED = 20_260_801;

const numeric = (text: string | undefined, fallback: number) => (text && Number.isFinite(Number(text)) ? Number(text) : fallback);
export const RUNS = numeric(env.FUZZ_RUNS, DEFAULT_RUNS);
export const SEED = numeric(env.FUZZ_SEED, DEFAULT_SEED);

/** Every operation lands in exactly one file: the last suite takes whatever the others do not claim. */
const CLAIMS: Record<string, (op: Operation) => boolean> = {
  identity: (op) => /^\/(auth|users|dev|health)\b/.test(op.path) || /\/invites\b/.test(op.path),
  networks: (op) => /^\/(groups|networks|nodes|routing-policies)\b/.test(op.path) && !/\/(invites|dns|enrolment-keys)\b/.test(op.path),
};

export function suiteOf(op: Operation): string {
  return Object.entries(CLAIMS).find(([, claims]) => claims(op))?.[0] ?? "rest";
}

/** Reads first, deletes last (deepest paths first), so the fixtures live as long as possible. */
const ORDER = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const byImpact = (a: Operation, b: Operation) =>
  ORDER.indexOf(a.method) - ORDER.indexOf(b.method) ||
  (a.method === "DELETE" ? b.path.length - a.path.length : a.path.localeCompare(b.path));

/** A per-operation seed: adding a route elsewhere does not change what this one receives. */
function seedFor(op: Operation) {
  let hash = SEED;
  for (const char of label(op)) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/** Registers one test per operation of `suite`, each a fast-check property over generated requests. */
export async function fuzzSuite(suite: string) {
  const ops = operations(await fetchDocument())
    .filter((op) => suiteOf(op) === suite)
    .sort(byImpact);
  let world: World;

  describe(`fuzz (${suite}): ${RUNS} runs per route, seed ${SEED}`, () => {
    beforeAll(async () => {
      world = await buildWorld();
      console.log(`fuzz ${suite}: ${ops.length} routes × ${RUNS} runs, FUZZ_SEED=${SEED}`);
    }, 30_000);

    it.each(ops.map((op) => [label(op), op] as const))(
      "%s",
      async (_name, op) => {
        await ensureCallers(world);
        const { ids } = world;
        const pools = {
          ids: {
            user: [ids.user!, ids.fuzzAdmin!, "me"],
            group: [ids.group!],
            network: [ids.network!],
            node: [ids.node!, ids.gatewayNode!, ids.deviceNode!],
            gateway: [ids.gatewayNode!, ids.gateway!],
            region: [ids.region!],
            policy: [ids.policy!],
            routing: [ids.policy!],
            record: [ids.record!],
            device: [ids.device!],
            key: [ids.key!],
            invite: [ids.invite!],
            provider: ["github", "google", "oidc"],
            agent: [ids.manager!, ids.daemon!],
            channel: [ids.channel!],
          },
          secrets: [world.enrolmentKey, world.deviceToken, "ek_unknown", "prt_unknown", "inv_unknown"],
        };
        const statuses: Record<number, number> = {};
        await fc.assert(
          fc.asyncProperty(requestFor(op, pools), async (request) => {
            const { status } = await sendAndCheck(world, request);
            statuses[status] = (statuses[status] ?? 0) + 1;
          }),
          { numRuns: RUNS, seed: seedFor(op), endOnFailure: true },
        );
        // How deep the generated requests got: a route answering only 401/404/422 is not really fuzzed.
        console.log(`fuzz ${label(op)} ${JSON.stringify(statuses)}`);
      },
      120_000,
    );
  });
}
