/**
 * Identity: the principal a request comes with (principal.ts), whether its header can be believed
 * (trust.ts), the roles (roles.ts) and the access rules every route declares (access.ts), with the
 * catalogue (identityErrors.ts). Knows nothing of HTTP beyond the header's text.
 *
 * Description only: other folders import the modules (docs/architecture.md "Entries").
 */
export {};
