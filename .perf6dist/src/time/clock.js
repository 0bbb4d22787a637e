"use strict";
/**
 * The current time as a dependency: services take a {@link Clock} so tests can pin "now" (the
 * login retention timer, "today's" day table, default timestamps).
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.systemClock = void 0;
/** The machine's clock. */
const systemClock = () => new Date();
exports.systemClock = systemClock;
//# sourceMappingURL=clock.js.map