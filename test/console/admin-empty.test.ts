// The admin pages' empty states need an empty platform: this file runs in the workers-alone project
// (test/suites.ts), in a workerd of its own, so nothing exists before its first test.
import { describe, expect, it } from "vitest";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";

describe("console admin on an empty platform", () => {
  it("says what to do while the inventories are empty", async () => {
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const inventory = await agent.get("/admin/inventory");
    expect(inventory.status).toBe(200);
    expect(inventory.text).toContain("No gateways yet");
    expect(inventory.text).toContain("No regions yet");
    expect((await agent.get("/admin/agents")).text).toContain("No agents yet");
  });
});
