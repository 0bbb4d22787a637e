/**
 * SAS issuance (valet key): short-lived, least-privilege tokens for tables (one partition,
 * read-only) and photos, the signing key, token lifetimes, stored access policies for revocation,
 * and the catalogue (sasErrors.ts).
 *
 * Description only: other folders import the modules (docs/architecture.md "Entries").
 */
export {};
