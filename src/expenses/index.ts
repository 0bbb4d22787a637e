/**
 * Expense claims as a log tail: one employee's claims in that employee's partition, newest first
 * by inverted ticks, so "the latest n claims" is one query with `$top=n`. The claims and their
 * catalogue (expenseErrors.ts).
 *
 * Description only: other folders import expenseClaims.ts (docs/architecture.md "Entries").
 */
export {};
