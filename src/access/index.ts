/**
 * Access events (`POST/GET …/access-events`): resource-access events of one employee, spread over
 * many partitions (department + employee id, never the hour) so inserts have no hot spot, read
 * newest first. The log and its catalogue (accessErrors.ts).
 *
 * Description only: other folders import accessLog.ts (docs/architecture.md "Entries").
 */
export {};
