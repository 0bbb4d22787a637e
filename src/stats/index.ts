/**
 * Message counters per employee (data series and wide entities): hourly counters in a day entity,
 * daily counters in a year entity, one increment counted once (incrementMarkers.ts), the property
 * names (counterProperties.ts) and the catalogue (statsErrors.ts).
 *
 * Description only: other folders import messageStats.ts (docs/architecture.md "Entries").
 */
export {};
