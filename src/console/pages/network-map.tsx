import type { Schema } from "../../../client/index.ts";
import { EmptyState } from "../layout";
import { SearchBox } from "../list-filter";
import type { ConsoleUser } from "../types";
import { NetworkFrame, when } from "./network-frame";
import { MapLegend, MapSummary } from "./network-map-lists";
import type { NetworkMap } from "./network-map-model";
import { count } from "./network-map-shapes";
import { layoutMap } from "./network-map-svg";

export interface MapProps {
  user: ConsoleUser;
  csrfToken: string;
  network: Schema<"Network">;
  map: NetworkMap;
  q?: string;
  /** The nodes read stopped at the map's bound: it shows the first `readLimit`. */
  truncated: { readLimit: number } | null;
  readAt: string;
}

/** The picture in one sentence, for <desc>: what a screen reader hears before the lists below. */
export function describeMap(map: NetworkMap): string {
  const words = [...map.counts.gatewayWords].map(([word, n]) => `${n} ${word}`).join(", ");
  const pairs = map.pairs ? `${count(map.pairs.total)} relayed ${map.pairs.total === 1 ? "pair" : "pairs"}` : "relayed pairs not shown";
  return [
    `${map.chains.length + map.moreChains} ${map.chains.length + map.moreChains === 1 ? "chain" : "chains"}`,
    `${map.counts.gateways} gateways${words ? ` (${words})` : ""}`,
    `${count(map.counts.devices)} devices (${count(map.counts.online)} online)${map.devices.mode === "groups" ? ` in ${map.devices.groups.length} tag groups drawn` : ""}`,
    pairs,
  ].join("; ");
}

export function NetworkMapPage({ user, csrfToken, network, map, q, truncated, readAt }: MapProps) {
  const { shapes, width, height } = layoutMap(map);
  const base = `/networks/${network.id}/map`;
  const empty = map.counts.devices === 0 && map.counts.gateways === 0;
  return (
    <NetworkFrame user={user} csrfToken={csrfToken} network={network} tab="/map">
      <p>
        Read at <time datetime={readAt}>{when(readAt)}</time>.{" "}
        <a class="button secondary" href={q ? `${base}?q=${encodeURIComponent(q)}` : base}>
          Refresh
        </a>
      </p>
      <SearchBox path={base} label="Find nodes by name, address or tag" q={q} />
      {truncated && (
        <p class="notice" role="status">
          The network has more than {count(truncated.readLimit)} nodes: the map shows the first {count(truncated.readLimit)}.
        </p>
      )}
      {empty ? (
        <EmptyState>Nothing to draw yet: add gateway nodes and devices on the Nodes page, then a routing policy.</EmptyState>
      ) : (
        <figure>
          {/* biome-ignore lint/a11y/useSemanticElements: a picture's scroll box, not a set of form controls (fieldset) */}
          <div class="chain-scroll" tabindex={0} role="group" aria-label={`Map of ${network.name}`}>
            <svg
              role="img"
              aria-labelledby="map-title map-desc"
              viewBox={`0 0 ${width} ${height}`}
              width={width}
              height={height}
              font-family="system-ui, sans-serif"
              font-size="13"
            >
              <title id="map-title">{`Map of ${network.name}`}</title>
              <desc id="map-desc">{describeMap(map)}</desc>
              {shapes}
            </svg>
          </div>
          <figcaption>Map of {network.name}: the lists below say the same in words.</figcaption>
          <MapLegend />
        </figure>
      )}
      <MapSummary network={network} map={map} q={q} />
    </NetworkFrame>
  );
}
