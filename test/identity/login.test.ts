import { describe, expect, it } from "vitest";
import { TEST_ADMIN } from "../test-secrets";
import { get, post } from "../helpers/api";
import { signInAdmin } from "../helpers/factories";

describe("POST /auth/login", () => {
  it("bootstraps the platform admin from the configured credentials and returns a token pair", async () => {
    const response = await post("/auth/login", TEST_ADMIN);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ tokenType: "Bearer", expiresIn: 900, user: { email: TEST_ADMIN.email, platformRole: "admin" } });
    expect(response.body.user).not.toHaveProperty("passwordHash");
    const me = await get("/users/me", response.body.accessToken);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(response.body.user.id);
  });

  it("rejects a wrong password with 401 in the envelope", async () => {
    await signInAdmin();
    const response = await post("/auth/login", { ...TEST_ADMIN, password: "wrong password!" });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: { code: "unauthorized", message: "Invalid email or password" } });
  });
});
