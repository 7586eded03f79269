/**
 * The console's icons: drawn here, inline SVG in the page (no icon font, no sprite to fetch, nothing from a CDN),
 * 24×24 strokes in currentColor so they take the text's colour in either palette. Decorative: aria-hidden, the
 * label beside each says what it means.
 */
const PATHS = {
  brand: ["M12 2.5 20.5 7v10L12 21.5 3.5 17V7z", "M8.5 10.5 12 8.5l3.5 2v3.5L12 16l-3.5-2z"],
  networks: ["M12 5v5", "M12 10 6 16", "M12 10l6 6", "M12 5a2 2 0 1 0 0-.01", "M6 18a2 2 0 1 0 0-.01", "M18 18a2 2 0 1 0 0-.01"],
  groups: [
    "M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6z",
    "M3.5 19c.6-3 2.8-5 5.5-5s4.9 2 5.5 5",
    "M16 11a2.5 2.5 0 1 0 0-5",
    "M17 14c2 .4 3.3 2 3.7 5",
  ],
  devices: ["M4 6h16v10H4z", "M2.5 19h19", "M10 16v3", "M14 16v3"],
  tunnels: ["M4 9h13", "M14 6l3 3-3 3", "M20 15H7", "M10 12l-3 3 3 3"],
  notifications: ["M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15z", "M10 20a2 2 0 0 0 4 0"],
  audit: ["M6 3h9l3 3v15H6z", "M9 9h6", "M9 13h6", "M9 17h4"],
  admin: [
    "M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8z",
    "M12 2v3",
    "M12 19v3",
    "M2 12h3",
    "M19 12h3",
    "M5 5l2 2",
    "M17 17l2 2",
    "M5 19l2-2",
    "M17 7l2-2",
  ],
  add: ["M12 5v14", "M5 12h14"],
  phone: ["M8 2.5h8v19H8z", "M11 18.5h2"],
  copy: ["M9 9h11v11H9z", "M5 15H4V4h11v1"],
} as const;

export type IconName = keyof typeof PATHS;

export const Icon = ({ name }: { name: IconName }) => (
  <svg
    class="icon"
    viewBox="0 0 24 24"
    aria-hidden="true"
    focusable="false"
    fill="none"
    stroke="currentColor"
    stroke-width="1.8"
    stroke-linecap="round"
    stroke-linejoin="round"
  >
    {PATHS[name].map((d) => (
      <path d={d} />
    ))}
  </svg>
);
