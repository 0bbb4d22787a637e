/**
 * The admin's operations view (`GET /api/operations`): whether the eventual parts keep up, read
 * from storage on demand in bounded requests; the poison queues and their replay, and the timer
 * runs. The only folder named "operations" (docs/architecture.md "Names").
 *
 * Description only: other folders import the modules (docs/architecture.md "Entries").
 */
export {};
