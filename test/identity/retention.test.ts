import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { get, post } from "../helpers/api";
import { createGroup, createNetwork, createUser, signInAdmin, unique } from "../helpers/factories";
import { runCron } from "../notifications/support/receiver";

const iso = (daysFromNow: number) => new Date(Date.now() + daysFromNow * 86_400_000).toISOString();
const count = async (table: string, id: string) =>
  (await env.DB.prepare(`select count(*) as n from ${table} where id = ?`).bind(id).first<{ n: number }>())!.n;

describe("the cron prunes state nobody can use any more", () => {
  it("drops expired states, resets, challenges, ended sessions with their tokens, old dev mail, orphan observations; live ones stay", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    await createNetwork(admin, (await createGroup(admin)).id); // the orphan observation needs a network row
    const id = (label: string) => unique(label);
    const ended = { revoked: id("ses"), expired: id("ses"), live: id("ses") };
    const rows = {
      oauthOld: id("oas"),
      oauthLive: id("oas"),
      resetOld: id("prs"),
      resetLive: id("prs"),
      challengeOld: id("mfc"),
      challengeLive: id("mfc"),
      tokenOfRevoked: id("rft"),
      tokenExpired: id("rft"),
      tokenLive: id("rft"),
      mailOld: id("dm"),
      mailNew: id("dm"),
      orphan: id("tun"),
    };
    const statements = [
      [
        "insert into sessions (id, user_id, created_at, expires_at, revoked_at) values (?, ?, ?, ?, ?)",
        ended.revoked,
        user.userId,
        iso(-10),
        iso(20),
        iso(-2),
      ],
      [
        "insert into sessions (id, user_id, created_at, expires_at, revoked_at) values (?, ?, ?, ?, ?)",
        ended.expired,
        user.userId,
        iso(-40),
        iso(-3),
        null,
      ],
      [
        "insert into sessions (id, user_id, created_at, expires_at, revoked_at) values (?, ?, ?, ?, ?)",
        ended.live,
        user.userId,
        iso(-1),
        iso(29),
        null,
      ],
      [
        "insert into refresh_tokens (id, session_id, token_hash, created_at, expires_at) values (?, ?, ?, ?, ?)",
        rows.tokenOfRevoked,
        ended.revoked,
        id("h"),
        iso(-10),
        iso(20),
      ],
      [
        "insert into refresh_tokens (id, session_id, token_hash, created_at, expires_at) values (?, ?, ?, ?, ?)",
        rows.tokenExpired,
        ended.live,
        id("h"),
        iso(-20),
        iso(-5),
      ],
      [
        "insert into refresh_tokens (id, session_id, token_hash, created_at, expires_at) values (?, ?, ?, ?, ?)",
        rows.tokenLive,
        ended.live,
        id("h"),
        iso(-1),
        iso(13),
      ],
      [
        "insert into oauth_states (id, state_hash, provider, created_at, expires_at) values (?, ?, 'oidc', ?, ?)",
        rows.oauthOld,
        id("h"),
        iso(-3),
        iso(-2),
      ],
      [
        "insert into oauth_states (id, state_hash, provider, created_at, expires_at) values (?, ?, 'oidc', ?, ?)",
        rows.oauthLive,
        id("h"),
        iso(0),
        iso(0.01),
      ],
      [
        "insert into password_resets (id, user_id, token_hash, created_at, expires_at) values (?, ?, ?, ?, ?)",
        rows.resetOld,
        user.userId,
        id("h"),
        iso(-3),
        iso(-2),
      ],
      [
        "insert into password_resets (id, user_id, token_hash, created_at, expires_at) values (?, ?, ?, ?, ?)",
        rows.resetLive,
        user.userId,
        id("h"),
        iso(0),
        iso(0.04),
      ],
      [
        "insert into mfa_challenges (id, user_id, token_hash, created_at, expires_at) values (?, ?, ?, ?, ?)",
        rows.challengeOld,
        user.userId,
        id("h"),
        iso(-3),
        iso(-2),
      ],
      [
        "insert into mfa_challenges (id, user_id, token_hash, created_at, expires_at) values (?, ?, ?, ?, ?)",
        rows.challengeLive,
        user.userId,
        id("h"),
        iso(0),
        iso(0.01),
      ],
      ["insert into dev_mail (id, recipient, subject, text, created_at) values (?, 'x@example.com', 's', 't', ?)", rows.mailOld, iso(-2)],
      ["insert into dev_mail (id, recipient, subject, text, created_at) values (?, 'x@example.com', 's', 't', ?)", rows.mailNew, iso(0)],
      [
        "insert into tunnel_observations (id, network_id, from_node_id, peer_public_key, rx_bytes, tx_bytes, reported_at, created_at) select ?, id, 'node_gone', 'k', 0, 0, ?, ? from networks limit 1",
        rows.orphan,
        iso(0),
        iso(0),
      ],
    ] as const;
    await env.DB.batch(statements.map(([sql, ...values]) => env.DB.prepare(sql).bind(...values)));

    await runCron();

    const gone = [
      ["sessions", ended.revoked],
      ["sessions", ended.expired],
      ["refresh_tokens", rows.tokenOfRevoked],
      ["refresh_tokens", rows.tokenExpired],
      ["oauth_states", rows.oauthOld],
      ["password_resets", rows.resetOld],
      ["mfa_challenges", rows.challengeOld],
      ["dev_mail", rows.mailOld],
      ["tunnel_observations", rows.orphan],
    ];
    const kept = [
      ["sessions", ended.live],
      ["refresh_tokens", rows.tokenLive],
      ["oauth_states", rows.oauthLive],
      ["password_resets", rows.resetLive],
      ["mfa_challenges", rows.challengeLive],
      ["dev_mail", rows.mailNew],
    ];
    for (const [table, rowId] of gone) expect(await count(table!, rowId!), `${table} ${rowId}`).toBe(0);
    for (const [table, rowId] of kept) expect(await count(table!, rowId!), `${table} ${rowId}`).toBe(1);

    // The user's own sign-in (made by createUser) is live and keeps working, refresh included.
    expect((await get("/users/me", user.token)).status).toBe(200);
    expect((await post("/auth/refresh", { refreshToken: user.refreshToken })).status).toBe(200);
  });
});
