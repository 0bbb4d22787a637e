/**
 * The Durable Functions HTTP API the local host serves under `/runtime/webhooks/durabletask/`
 * (`httpApi.ts`, its request and response plumbing in `httpMessages.ts`, status bodies in
 * `status.ts`) and the value of a `durableClient` input binding (`clientInput.ts`). The runtime's
 * files import these modules directly.
 */
export {};
