/**
 * Relocating a department between storage accounts (docs/accounts.md "Relocating a department"):
 * the orchestrator and its activities, each a bounded, idempotent step of src/accounts/relocation/.
 * Nothing imports this entry.
 */
export {};
