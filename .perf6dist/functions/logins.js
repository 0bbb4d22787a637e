"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.listLoginAttempts = exports.recordLoginAttempt = void 0;
exports.runLoginRetention = runLoginRetention;
/**
 * Login attempts in per-day tables (high-volume delete), API.md "Login attempts":
 * `POST /logins`, `GET /logins/{userId}?days=7`, and the timer `dropExpiredLoginTables` that drops
 * whole day tables past the retention and creates tomorrow's table.
 */
const functions_1 = require("@azure/functions");
const zod_1 = require("zod");
const config_1 = require("../src/config");
const loginDayTables_1 = require("../src/logins/loginDayTables");
const loginAttempts_1 = require("../src/logins/loginAttempts");
const retention_1 = require("../src/logins/retention");
const clients_1 = require("../src/storage/clients");
const keys_1 = require("../src/storage/keys");
const http_1 = require("./shared/http");
const input_1 = require("./shared/input");
let service;
function logins() {
    if (!service) {
        const config = (0, config_1.getConfig)();
        const tables = new loginDayTables_1.LoginDayTables((0, clients_1.getStorageClients)(), config.tables.loginAttemptsPrefix);
        service = { tables, attempts: new loginAttempts_1.LoginAttempts(tables, config.logins.retentionDays) };
    }
    return service;
}
const userId = zod_1.z.string().min(1).max(keys_1.MAX_LOGIN_USER_ID_LENGTH);
const attemptBody = zod_1.z.strictObject({
    userId,
    succeeded: zod_1.z.boolean(),
    ip: zod_1.z.union([zod_1.z.ipv4(), zod_1.z.ipv6()], { message: 'must be an IPv4 or IPv6 address' }).optional(),
    at: input_1.instant.optional(),
});
const listQuery = zod_1.z.object({
    days: (0, input_1.queryInt)(1, 3650).default(loginAttempts_1.DEFAULT_LOGIN_DAYS),
    top: (0, input_1.queryInt)(1, loginAttempts_1.MAX_LOGIN_TOP).default(loginAttempts_1.MAX_LOGIN_TOP),
});
function toJson(attempt) {
    return { ...attempt, at: attempt.at.toISOString() };
}
/** `POST /logins` → 201 with the stored attempt. */
exports.recordLoginAttempt = (0, http_1.handleErrors)(async (request) => {
    const body = await (0, http_1.readJson)(request, attemptBody);
    const { attempt, etag } = await logins().attempts.record(body);
    return (0, http_1.json)(201, toJson(attempt), { etag });
});
/**
 * `GET /logins/{userId}?days=N` → the user's attempts of the last N days, newest first. The route
 * is a catch-all so an id with `/` may be sent raw; an encoded `%2F`, which the host leaves
 * encoded in route values (as ASP.NET routing does), is decoded here.
 */
exports.listLoginAttempts = (0, http_1.handleErrors)(async (request) => {
    const params = (0, http_1.readParams)(request, zod_1.z.object({ userId: zod_1.z.string() }));
    const id = (0, http_1.validate)(userId, params.userId.replace(/%2F/gi, '/'), 'route.userId');
    const { days, top } = (0, http_1.readQuery)(request, listQuery);
    const attempts = await logins().attempts.recent(id, days, top);
    return (0, http_1.json)(200, { items: attempts.map(toJson) });
});
/** Timer: drops expired day tables, logs what it dropped, pre-creates tomorrow's table. */
async function runLoginRetention(_timer, context) {
    const { tables, attempts } = logins();
    const report = await (0, retention_1.dropExpiredLoginTables)(tables, attempts.retentionDays);
    context.log(`dropExpiredLoginTables: dropped ${report.dropped.length} day table(s)` +
        (report.dropped.length > 0 ? ` (${report.dropped.join(', ')})` : '') +
        `, ${report.alreadyGone.length} already gone, ${report.kept.length} kept, ` +
        `${report.preCreated} ready.`);
}
functions_1.app.http('recordLoginAttempt', {
    route: 'logins',
    methods: ['POST'],
    authLevel: 'function',
    handler: exports.recordLoginAttempt,
});
functions_1.app.http('listLoginAttempts', {
    route: 'logins/{*userId}',
    methods: ['GET'],
    authLevel: 'function',
    handler: exports.listLoginAttempts,
});
functions_1.app.timer('dropExpiredLoginTables', {
    schedule: (0, config_1.getConfig)().logins.cleanupSchedule,
    handler: runLoginRetention,
});
//# sourceMappingURL=logins.js.map