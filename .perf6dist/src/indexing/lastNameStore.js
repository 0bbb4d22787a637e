"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_LIST_ATTEMPTS = void 0;
exports.encodeMember = encodeMember;
exports.decodeMember = decodeMember;
exports.parseMemberList = parseMemberList;
exports.untilWritten = untilWritten;
exports.writeOrRetry = writeOrRetry;
/**
 * The organisation-wide last-name index (index entities): for each normalised last name, the
 * (department, employee id) pairs of the employees who carry it. Two stores implement it, chosen
 * by `LASTNAME_INDEX_MODE`:
 *
 * - `entity` (guide option 3): entities in `EmployeeIndex`, one partition per last name, member
 *   list sharded over RowKeys `part_000`, `part_001`, ... when it outgrows one entity;
 * - `blob` (guide option 1): one JSON blob per last name in `lastname-index`.
 *
 * Both change a member list only with ETag-conditional writes and retry on a lost race, so
 * concurrent workers never lose each other's additions. `add` and `remove` are idempotent.
 */
const errors_1 = require("../errors");
const errors_2 = require("../storage/errors");
const keys_1 = require("../storage/keys");
/** `Sales/000223`: department names cannot contain `/`, so the pair is unambiguous. */
function encodeMember(member) {
    return `${member.department}/${member.employeeId}`;
}
/** Reverses {@link encodeMember}; `undefined` for anything else. */
function decodeMember(text) {
    const slash = text.lastIndexOf('/');
    const department = text.slice(0, slash);
    const employeeId = text.slice(slash + 1);
    return slash > 0 && (0, keys_1.isDepartmentName)(department) && (0, keys_1.isEmployeeId)(employeeId)
        ? { department, employeeId }
        : undefined;
}
/** Parses a stored member list (a JSON array of encoded members); unreadable items are dropped. */
function parseMemberList(json) {
    if (typeof json !== 'string')
        return [];
    try {
        const parsed = JSON.parse(json);
        return Array.isArray(parsed)
            ? parsed.filter((m) => typeof m === 'string' && decodeMember(m) !== undefined)
            : [];
    }
    catch {
        return [];
    }
}
/** Most attempts of one conditional read-modify-write before giving up (the message is retried). */
exports.MAX_LIST_ATTEMPTS = 30;
/**
 * Runs a read-modify-write until it does not lose a race (`attempt` returns `'retry'`).
 *
 * @throws {ThrottledError} after {@link MAX_LIST_ATTEMPTS} lost races.
 */
async function untilWritten(what, attempt) {
    for (let i = 1; i <= exports.MAX_LIST_ATTEMPTS; i++) {
        const result = await attempt();
        if (result !== 'retry')
            return result;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 5 * i)));
    }
    throw new errors_1.ThrottledError(`${what} kept changing concurrently; try again.`, 1);
}
/**
 * One conditional write of an {@link untilWritten} attempt: true when it took effect, `'retry'`
 * when another writer got there first (412, 409, 404).
 *
 * @throws {DomainError} for other storage faults.
 */
async function writeOrRetry(write) {
    return (await (0, errors_2.tookEffect)(write)) || 'retry';
}
//# sourceMappingURL=lastNameStore.js.map