/**
 * How the console writes times and sizes for a person: relative ages ("42 s ago", "never") for things that
 * change by the second (handshakes, heartbeats), binary units for byte counters, and an unambiguous UTC
 * timestamp for everything else (the console does not know the reader's time zone).
 */

/** "never", "just now", "42 s ago", "5 min ago", "3 h ago", "2 d ago". */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "never";
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (Number.isNaN(seconds)) return "unknown";
  if (seconds < 1) return "just now";
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}

const UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];

/** 0 B, 512 B, 1.5 KiB, 12 MiB, 3.20 GiB: three significant digits at most. */
export function bytes(count: number): string {
  let value = count;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${value} B`;
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

/** "2026-07-02 14:05 UTC", or "—" for a missing time. */
export function when(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
