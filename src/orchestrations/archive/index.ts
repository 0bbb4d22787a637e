/**
 * Archiving a whole department (docs/orchestrations.md "Department archive"): the orchestrator
 * pages through the department and its activities archive each page. Nothing imports this entry.
 */
export {};
