import { afterAll, it } from "vitest";
import { api, login } from "../test/e2e/support/api-client.ts";
import { startWorker, type WorkerServer } from "../test/e2e/support/worker-server.ts";
import { growthLines, measureGrowth } from "./growth.ts";

let server: WorkerServer | undefined;
afterAll(async () => server?.stop());
it("growth", async () => {
  server = await startWorker({ vars: { THROTTLE_LOGIN_ACCOUNT: "10000/1", THROTTLE_LOGIN_ADDRESS: "10000/1" } });
  const token = await login(server.baseUrl, server.admin);
  console.log(growthLines(await measureGrowth(server, api(server.baseUrl, token), token)).join("\n"));
});
