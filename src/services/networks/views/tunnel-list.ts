import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { devices, memberships, networks } from "../../../db/schema";
import type { Env } from "../../../lib/env";
import { cursorPosition } from "../../../lib/pagination";
import type { UserPrincipal } from "../../../lib/types";
import { unwrap } from "../../../lib/write-result";
import { roleAllows } from "../../authorization";
import type { ListedTunnel } from "../../../objects/network/client";
import { networkWriter } from "../../../objects/network/client";
import type { PageRequest } from "./pages";

/**
 * GET /tunnels: tunnels live in each network's hot state (objects/network/hot/), so a page is read from the
 * writers of the networks the caller may see (one D1 read finds them, and the caller's own devices there),
 * each answering at most limit + 1 rows after the cursor, merged in (createdAt, id) order. A network that
 * names none the caller may see answers an empty page, as before.
 */
export async function listTunnels(
  env: Env,
  db: Db,
  auth: UserPrincipal,
  page: PageRequest,
  filter: { networkId?: string; nodeId?: string },
) {
  const readable = await readableNetworks(db, auth, filter.networkId);
  const after = page.cursor ? cursorPosition(page.cursor) : undefined;
  const pages = await Promise.all(
    readable.map((network) =>
      unwrap(
        networkWriter(env, network.id).readTunnels(network.id, {
          ...(filter.nodeId ? { nodeId: filter.nodeId } : {}),
          seenDevices: network.seenDevices,
          ...(after ? { after } : {}),
          limit: page.limit + 1,
        }),
      ),
    ),
  );
  const byPosition = (a: ListedTunnel, b: ListedTunnel) =>
    a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  return pages
    .flat()
    .sort(byPosition)
    .slice(0, page.limit + 1);
}

/** The networks a caller may read, each with the device nodes whose detail they may see (null: every one). */
async function readableNetworks(db: Db, auth: UserPrincipal, networkId?: string) {
  const only = networkId ? eq(networks.id, networkId) : undefined;
  if (auth.platformRole === "admin") {
    const rows = await db.select({ id: networks.id }).from(networks).where(only).all();
    return rows.map((row) => ({ id: row.id, seenDevices: null }));
  }
  const [rows, owned] = await db.batch([
    db
      .select({ id: networks.id, role: memberships.role })
      .from(networks)
      .innerJoin(memberships, and(eq(memberships.groupId, networks.groupId), eq(memberships.userId, auth.userId)))
      .where(only),
    db.select({ networkId: devices.networkId, nodeId: devices.nodeId }).from(devices).where(eq(devices.userId, auth.userId)),
  ]);
  return rows.map((row) => ({
    id: row.id,
    // A viewer's own devices are not theirs to read (device-node-privacy.ts): they see no device's detail.
    seenDevices: roleAllows(row.role, "manage")
      ? null
      : roleAllows(row.role, "enrol")
        ? owned.filter((device) => device.networkId === row.id).map((device) => device.nodeId)
        : [],
  }));
}
