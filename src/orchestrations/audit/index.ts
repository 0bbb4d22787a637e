/**
 * The index audit and repair (docs/orchestrations.md "Index audit and repair"): the orchestrator,
 * its activities, and one audit per stored copy — employee pages against the id and email index,
 * the org last-name index, the department listing, manager copies, orphan reviews — with the pure
 * diff and counts they share. Nothing imports this entry.
 */
export {};
