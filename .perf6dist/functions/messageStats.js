"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.dailyMessages = exports.hourlyMessages = exports.recordMessages = void 0;
/**
 * Message statistics (data series + wide entity), API.md "Message statistics":
 * `POST /departments/{dept}/employees/{id}/messages` (increment hour and day counters together),
 * `GET .../messages/hourly?day=YYYY-MM-DD` (one point read) and
 * `GET .../messages/daily?year=YYYY` (two point reads).
 */
const functions_1 = require("@azure/functions");
const zod_1 = require("zod");
const config_1 = require("../src/config");
const messageStats_1 = require("../src/stats/messageStats");
const clients_1 = require("../src/storage/clients");
const instants_1 = require("../src/time/instants");
const http_1 = require("./shared/http");
const input_1 = require("./shared/input");
let stats;
function messageStats() {
    stats ??= new messageStats_1.MessageStats((0, clients_1.getStorageClients)().table((0, config_1.getConfig)().tables.messageStats));
    return stats;
}
const countBody = zod_1.z.strictObject({
    at: input_1.instant.optional(),
    count: zod_1.z.number().int().min(1).max(messageStats_1.MAX_MESSAGE_COUNT).optional(),
});
/** `POST .../messages` → 204 once both counters include the messages. */
exports.recordMessages = (0, http_1.handleErrors)(async (request) => {
    const { dept, id } = (0, http_1.readParams)(request, input_1.employeeRoute);
    const body = await (0, http_1.readJson)(request, countBody);
    await messageStats().record(dept, id, body);
    return { status: 204 };
});
/** `GET .../messages/hourly?day=YYYY-MM-DD` → `{"day","hours":[24 numbers]}`. */
exports.hourlyMessages = (0, http_1.handleErrors)(async (request) => {
    const { dept, id } = (0, http_1.readParams)(request, input_1.employeeRoute);
    const { day } = (0, http_1.readQuery)(request, zod_1.z.object({ day: input_1.utcDay }));
    const hours = await messageStats().hourly(dept, id, day);
    return (0, http_1.json)(200, { day: (0, instants_1.formatUtcDay)(day), hours });
});
/** `GET .../messages/daily?year=YYYY` → `{"year","days":[365 or 366 numbers]}`. */
exports.dailyMessages = (0, http_1.handleErrors)(async (request) => {
    const { dept, id } = (0, http_1.readParams)(request, input_1.employeeRoute);
    const { year } = (0, http_1.readQuery)(request, zod_1.z.object({ year: (0, input_1.queryInt)(1601, 9999) }));
    const days = await messageStats().daily(dept, id, year);
    return (0, http_1.json)(200, { year, days });
});
functions_1.app.http('recordMessages', {
    route: 'departments/{dept}/employees/{id}/messages',
    methods: ['POST'],
    authLevel: 'function',
    handler: exports.recordMessages,
});
functions_1.app.http('hourlyMessages', {
    route: 'departments/{dept}/employees/{id}/messages/hourly',
    methods: ['GET'],
    authLevel: 'function',
    handler: exports.hourlyMessages,
});
functions_1.app.http('dailyMessages', {
    route: 'departments/{dept}/employees/{id}/messages/daily',
    methods: ['GET'],
    authLevel: 'function',
    handler: exports.dailyMessages,
});
//# sourceMappingURL=messageStats.js.map