/** The network DNS core: record rules, conflict rules and the two pure renderers. */
export { RECORD_TYPES, TTL_DEFAULT, TTL_MAX, TTL_MIN, validateRecord, validateTtl, validateType } from "./records";
export type { Checked, DnsRecord, Invalid, RecordField, RecordInput, RecordType } from "./records";
export { findRecordConflict } from "./conflicts";
export { NAME_SERVER_HOST } from "./names";
export { APEX, absoluteName } from "./names";
export {
  MAX_DOMAIN_LENGTH,
  SOA_CONTACT_HOST,
  ZONE_OWN_NAMES,
  domainLengthProblem,
  fullNameProblem,
  nodeNameProblem,
  zoneOwnNameProblem,
} from "./reserved";
export { TXT_MAX_BYTES } from "./txt";
export { renderZone, serialFor, zoneEtag } from "./zonefile";
export type { ZoneOptions } from "./zonefile";
export { defaultZoneFilePath, renderCorefile } from "./corefile";
export type { CorefileOptions } from "./corefile";
