/**
 * The current time as a dependency: services take a {@link Clock} so tests can pin "now" (the
 * login retention timer, "today's" day table, default timestamps).
 */

/** Returns the current instant. */
export type Clock = () => Date;

/** The machine's clock. */
export const systemClock: Clock = () => new Date();
