/** The network DNS core: record rules, conflict rules and the two pure renderers. */
export { RECORD_TYPES, TTL_DEFAULT, TTL_MAX, TTL_MIN, validateRecord, validateTtl, validateType } from "./records";
export type { Checked, DnsRecord, Invalid, RecordField, RecordInput, RecordType } from "./records";
export { NAME_SERVER_HOST, findRecordConflict } from "./conflicts";
export { APEX, absoluteName } from "./names";
export { TXT_MAX_BYTES } from "./txt";
export { renderZone, serialFor, zoneEtag } from "./zonefile";
export type { ZoneOptions } from "./zonefile";
export { defaultZoneFilePath, renderCorefile } from "./corefile";
export type { CorefileOptions } from "./corefile";
