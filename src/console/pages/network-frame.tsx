import type { Child } from "hono/jsx";
import type { Schema } from "../../../client/index.ts";
import { Icon } from "../icons";
import { ErrorNotice, Page } from "../layout";
import type { ConsoleUser } from "../types";

/** The sections of one network, each its own page under /networks/:id. */
export const NETWORK_TABS = [
  { path: "", label: "Overview" },
  { path: "/nodes", label: "Nodes" },
  { path: "/policies", label: "Routing policies" },
  { path: "/map", label: "Map" },
  { path: "/dns", label: "DNS" },
  { path: "/access", label: "Access" },
  { path: "/status", label: "Runtime status" },
] as const;

/** A tab's path, or the network's "Add a device" page (a button beside the tabs, on every network page). */
export type NetworkTab = (typeof NETWORK_TABS)[number]["path"] | "/add-device";

export interface FrameProps {
  user: ConsoleUser;
  csrfToken: string;
  network: Schema<"Network">;
  tab: NetworkTab;
  /** The page's own heading under the tab (a node's page: "net-1: laptop-a"); the tab's label when omitted. */
  heading?: string;
  /** A refusal from the API to show above the section (the form that caused it is re-rendered below). */
  error?: { message: string; fields?: { path: string; message: string }[] };
  children?: Child;
}

/** The page shell of a network: its name as the heading, then the section tabs (links; current one marked). */
export function NetworkFrame({ user, csrfToken, network, tab, heading, error, children }: FrameProps) {
  const current = NETWORK_TABS.find((entry) => entry.path === tab);
  const title = tab === "" && !heading ? network.name : `${network.name}: ${heading ?? current?.label ?? ""}`;
  return (
    <Page title={title} user={user} csrfToken={csrfToken} section="/networks">
      <nav aria-label="Network sections">
        <ul class="buttons tabs">
          {NETWORK_TABS.map((entry) => (
            <li>
              <a href={`/networks/${network.id}${entry.path}`} aria-current={entry.path === tab ? "page" : undefined}>
                {entry.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <p class="frame-actions">
        <a class="button" href={`/networks/${network.id}/add-device`} aria-current={tab === "/add-device" ? "page" : undefined}>
          <Icon name="add" />
          Add a device
        </a>
      </p>
      <ErrorNotice message={error?.message} fields={error?.fields} />
      {children}
    </Page>
  );
}

/** An API failure while reading a page (not found, no access): a plain page with the API's sentence. */
export function FailurePage({ user, csrfToken, message }: { user: ConsoleUser; csrfToken: string; message: string }) {
  return (
    <Page title="Could not load this page" user={user} csrfToken={csrfToken} section="/networks">
      <ErrorNotice message={message} />
      <p>
        <a href="/networks">Back to networks</a>
      </p>
    </Page>
  );
}

/** "2026-11-21 10:00 UTC", or a dash for never. */
export const when = (iso: string | null | undefined) => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "never");

/** A WireGuard key shortened for tables (the full key in the title attribute). */
export const shortKey = (key: string | null) => (key ? `${key.slice(0, 8)}…` : "awaiting agent");
