/**
 * Durable Functions work over many partitions: the move of an employee between departments
 * (`move/`), the department archive (`archive/`), the index audit and repair (`audit/`), the
 * department relocation between accounts (`relocation/`). Here: what they share — activity and
 * orchestrator names, the retry policy of activities, refusals, the status a client sees, the
 * services activities receive, department pages.
 *
 * Orchestrator code is replayed: it calls activities, never storage (docs/orchestrations.md).
 * Description only: other folders import the modules (docs/architecture.md "Entries").
 */
export {};
