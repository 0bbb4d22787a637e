/**
 * Login attempts in per-day tables (high-volume delete pattern): one table per UTC day, so a day is
 * deleted by one delete-table request; the attempts, the day tables, the retention that drops old
 * days, and the catalogue (loginErrors.ts).
 *
 * Description only: other folders import the modules (docs/architecture.md "Entries").
 */
export {};
