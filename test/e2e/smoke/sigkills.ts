// The crash schedule both durability tests run: clients keep going while the server (wrangler and workerd, its
// whole process group) is SIGKILLed and started again on the same state, `kills` times, `everyMs` apart.
import type { WorkerServer } from "../support/worker-server.ts";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Kills and restarts the server `kills` times; returns what `acknowledged()` counted just before each kill. */
export async function killRepeatedly(server: WorkerServer, kills: number, acknowledged: () => number, everyMs = 3000): Promise<number[]> {
  const atKill: number[] = [];
  for (let kill = 0; kill < kills; kill++) {
    await sleep(everyMs);
    atKill.push(acknowledged());
    await server.killAndRestart();
  }
  // A while after the last restart, so writes are acknowledged again before the clients stop.
  await sleep(2000);
  return atKill;
}
