/**
 * Moving an employee to another department (docs/orchestrations.md "Move"): the request and its
 * checks, the orchestrator's copy rounds, the activities (copy to the target, remove from the
 * source), and the catalogue (moveErrors.ts). Nothing imports this entry.
 */
export {};
