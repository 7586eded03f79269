/** The control plane's version: package.json's (test/api/version.test.ts holds them equal), the one wgo compares with its own. */
export const SERVER_VERSION = "0.1.0";
