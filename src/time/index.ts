/**
 * Time: the injectable clock (clock.ts), UTC calendar arithmetic and the instants a table can
 * store (instants.ts), and its catalogue (timeErrors.ts).
 *
 * A library folder: import the module you need; nothing imports this entry.
 */
export {};
