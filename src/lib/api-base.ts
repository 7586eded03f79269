/** Every route lives under this prefix (the app mounts it; the audit trail strips it from route names). */
export const API_BASE = "/api/v1";
