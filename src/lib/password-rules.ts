/** The one password policy: the API's schemas and the services that set passwords read it here. */
export const PASSWORD_RULES = { min: 10, max: 256 } as const;
