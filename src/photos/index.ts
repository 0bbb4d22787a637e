/**
 * Employee photos as blobs (large entities pattern): each upload a new versioned blob, its type
 * decided from the bytes, the employee entity pointing at it; read grants (one routine for both
 * URL paths), and the sweeps that remove versions nobody references; the catalogue
 * (photoErrors.ts).
 *
 * Description only: other folders import the modules (docs/architecture.md "Entries").
 */
export {};
