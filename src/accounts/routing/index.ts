/**
 * Serving each call from the account that holds its data: one instance of a service per account
 * (`perAccount.ts`), a `TableClient` and a photo container that route by placement
 * (`routedTable.ts`, `routedPhotos.ts`), the org-wide last-name index and SAS issuance spread
 * over the accounts (`spreadLastNames.ts`, `spreadSas.ts`). Capabilities stay single-account;
 * only the account layer (../accountLayer.ts) and the composition root's builders route.
 * docs/accounts.md "Reading across accounts".
 */
export {};
