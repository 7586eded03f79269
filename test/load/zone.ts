/**
 * The data records of an RFC 1035 zone file as "name TYPE value", sorted: the SOA, the NS record and
 * the name server's own address record (the zone's plumbing) are left out. Owner names are relative
 * to $ORIGIN as the renderer writes them; a blank owner repeats the previous one.
 */
export function zoneRecords(zone: string): string[] {
  const out: string[] = [];
  let owner = "";
  for (const line of zone.split("\n")) {
    if (!line.trim() || line.startsWith("$") || line.trim().startsWith(";")) continue;
    // A leading blank splits into "" first, so fields[0] is the owner or nothing either way.
    const fields = line.split(/\s+/);
    if (fields[0]) owner = fields[0];
    const rest = fields.slice(1);
    const typeAt = rest.findIndex((f) => /^(A|AAAA|CNAME|TXT|SOA|NS)$/.test(f));
    const type = rest[typeAt];
    if (!type || type === "SOA" || type === "NS" || owner === "ns") continue;
    out.push(`${owner} ${type} ${rest.slice(typeAt + 1).join(" ")}`);
  }
  return out.sort();
}
