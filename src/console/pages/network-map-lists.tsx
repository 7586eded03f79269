import type { Schema } from "../../../client/index.ts";
import { when } from "./network-frame";
import type { Tone } from "./network-map-health";
import type { MapHop, NetworkMap } from "./network-map-model";
import { COLOURS, count } from "./network-map-shapes";

// The map in words: a legend, then a summary a screen reader (or anyone) can read instead of the picture.
// Not a copy of the picture: counts, what needs attention, the groups to open, the relayed pairs, the matches.

const mark = (tone: Tone) => (
  <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
    {tone === "ok" && <circle cx="7" cy="7" r="5" fill={COLOURS.ok} />}
    {tone === "bad" && <polygon points="7,1 13,7 7,13 1,7" fill={COLOURS.bad} />}
    {tone === "muted" && <circle cx="7" cy="7" r="4" fill="none" stroke={COLOURS.muted} stroke-width="2" />}
  </svg>
);

export function MapLegend() {
  return (
    <ul class="buttons legend" aria-label="Legend">
      <li>{mark("ok")} online or healthy</li>
      <li>{mark("bad")} offline, unhealthy or failing</li>
      <li>{mark("muted")} awaiting agent, never seen, drained or not shown</li>
      <li>▶ active member (carries the traffic); dimmed: standby</li>
      <li>(R) relay</li>
      <li>
        <svg width="28" height="10" viewBox="0 0 28 10" aria-hidden="true">
          <line x1="0" y1="5" x2="28" y2="5" stroke={COLOURS.relay} stroke-width="2" stroke-dasharray="6 4" />
        </svg>{" "}
        relayed pair, through its relay
      </li>
      <li>yellow, outlined: matches the search</li>
    </ul>
  );
}

const words = (tally: Map<string, number>) => [...tally].map(([word, n]) => `${count(n)} ${word}`).join(", ");
const hopWords = (hop: MapHop) =>
  hop.pool
    ? `${hop.title}: ${hop.members.map((m) => `${m.name} (${m.health.word}, ${m.active ? "active" : "standby"})`).join(", ")}`
    : hop.members.map((m) => `${m.name} (${m.health.word})`).join(", ") || `${hop.title} (health unknown)`;

export function MapSummary({ network, map, q }: { network: Schema<"Network">; map: NetworkMap; q?: string }) {
  const base = `/networks/${network.id}`;
  const node = (id: string, name: string) => <a href={`${base}/nodes/${id}`}>{name}</a>;
  const attention = [...map.chains.flatMap((chain) => chain.hops.flatMap((hop) => hop.members)), ...map.gateways].filter(
    (gateway, index, all) => gateway.health.tone !== "ok" && all.findIndex((other) => other.id === gateway.id) === index,
  );
  const relays = [...map.chains.flatMap((chain) => chain.hops.flatMap((hop) => hop.members)), ...map.gateways].filter(
    (gateway, index, all) => gateway.relay && all.findIndex((other) => other.id === gateway.id) === index,
  );
  const devices = map.devices;
  return (
    <section aria-labelledby="map-words">
      <h2 id="map-words">The map in words</h2>
      {map.matches && (
        <div role="status">
          <h3>Matches for “{q}”</h3>
          {map.matches.total === 0 ? (
            <p>No node's name, address or tag contains “{q}”.</p>
          ) : (
            <>
              <p>{`${count(map.matches.total)} ${map.matches.total === 1 ? "node matches" : "nodes match"}${map.matches.total > map.matches.list.length ? `; the first ${map.matches.list.length}:` : ":"}`}</p>
              <ul aria-label="Matching nodes">
                {map.matches.list.map((match) => (
                  <li>
                    {node(match.id, match.name)}: {match.health.word} ({match.where})
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      <h3>Chains</h3>
      {map.chains.length === 0 ? (
        <p>
          No routing policy yet: <a href={`${base}/policies`}>add one</a> to send traffic through gateways.
        </p>
      ) : (
        <ul aria-label="Chains">
          {map.chains.map((chain) => (
            <li>
              {chain.policies.map((policy) => `${policy.name} (${policy.destination})`).join(", ")}:{" "}
              {chain.hops.map(hopWords).join(", then ")}
            </li>
          ))}
          {map.moreChains > 0 && <li>{map.moreChains} more chains: see the Routing policies page.</li>}
        </ul>
      )}
      <h3>Gateways</h3>
      <p>
        {map.counts.gateways === 0 ? "No gateway nodes yet." : `${map.counts.gateways} gateway nodes: ${words(map.counts.gatewayWords)}.`}
      </p>
      {attention.length > 0 && (
        <ul aria-label="Gateways not healthy">
          {attention.map((gateway) => (
            <li>
              {node(gateway.id, gateway.name)}: {gateway.health.word}
            </li>
          ))}
        </ul>
      )}
      {relays.length > 0 && <p>Relays: {relays.map((relay, index) => [index > 0 ? ", " : "", node(relay.id, relay.name)])}.</p>}
      <h3>Devices</h3>
      <p>{map.counts.devices === 0 ? "No devices yet." : `${count(map.counts.devices)} devices: ${words(map.counts.deviceWords)}.`}</p>
      {devices.mode === "groups" && (
        <ul aria-label="Device groups">
          {devices.groups.map((group) => (
            <li>
              {group.key}: {count(group.count)} ({count(group.online)} online)
              {group.matches > 0 && `, ${count(group.matches)} matching`}
              {group.key === devices.open?.key ? (
                " (open on the map)"
              ) : (
                <>
                  {" "}
                  <a href={`${base}/map?open=${encodeURIComponent(group.key)}${q ? `&q=${encodeURIComponent(q)}` : ""}`}>
                    Open {group.key}
                  </a>
                </>
              )}
            </li>
          ))}
          {devices.other && <li>{`${devices.other.groups} other tags: ${count(devices.other.nodes)} devices (search to find one)`}</li>}
        </ul>
      )}
      <h3>Relayed pairs</h3>
      {map.pairs === null ? (
        <p>Relayed pairs are shown to the group's owners and admins: they name every member's devices.</p>
      ) : map.pairs.total === 0 ? (
        <p>None: every pair of devices that reach each other does so directly.</p>
      ) : (
        <ul aria-label="Relayed pairs">
          {map.pairs.list.map((pair) => (
            <li>
              {node(pair.a.nodeId, pair.a.name)} and {node(pair.b.nodeId, pair.b.name)} through relay{" "}
              {node(pair.relay.nodeId, pair.relay.name)} (since {when(pair.movedAt)})
            </li>
          ))}
          {map.pairs.total > map.pairs.list.length && <li>{count(map.pairs.total - map.pairs.list.length)} more pairs</li>}
        </ul>
      )}
    </section>
  );
}
