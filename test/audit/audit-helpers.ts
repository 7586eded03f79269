import { expect, vi } from "vitest";
import { get } from "../helpers/api";
import type { Session } from "../helpers/factories";

export interface AuditEvent {
  id: string;
  at: string;
  actor: { type: string; id: string | null };
  method: string;
  route: string;
  params: Record<string, string>;
  resourceId: string | null;
  groupId: string | null;
  networkId: string | null;
  status: number;
  requestId: string;
}

export async function auditPage(session: Session, query = "") {
  const response = await get(`/audit?limit=200${query}`, session.token);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.items as AuditEvent[];
}

/** Audit rows are written after the response (waitUntil): poll until the expected one is there. */
export const awaitAudit = (session: Session, query: string, match: (event: AuditEvent) => boolean) =>
  vi.waitFor(
    async () => {
      const found = (await auditPage(session, query)).find(match);
      expect(found, `no audit event matched in ${query}`).toBeTruthy();
      return found!;
    },
    { timeout: 10_000, interval: 100 },
  );
