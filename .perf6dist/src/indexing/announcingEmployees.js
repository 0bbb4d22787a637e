"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.withAnnouncements = withAnnouncements;
const keys_1 = require("../storage/keys");
function idOf(body) {
    const id = body?.employeeId;
    return typeof id === 'string' && (0, keys_1.isEmployeeId)(id) ? id : undefined;
}
/**
 * Wraps `employees` so create, import, patch, setPhotoUrl and delete announce first. Reads are
 * untouched. Invalid input is not announced (the write will refuse it anyway).
 */
function withAnnouncements(employees, queue) {
    const announce = async (department, ids) => {
        const valid = [...new Set(ids.filter((id) => id !== undefined))];
        if (!(0, keys_1.isDepartmentName)(department) || valid.length === 0)
            return;
        await queue.announce(valid.map((employeeId) => ({ department, employeeId })));
    };
    // The wrapper inherits every method from the wrapped instance and overrides the writes.
    const wrapped = Object.create(employees);
    Object.assign(wrapped, {
        create: async (department, body) => {
            await announce(department, [idOf(body)]);
            return employees.create(department, body);
        },
        import: async (department, rows) => {
            await announce(department, rows.map(idOf));
            return employees.import(department, rows);
        },
        patch: async (...args) => {
            await announce(args[0], [(0, keys_1.isEmployeeId)(args[1]) ? args[1] : undefined]);
            return employees.patch(...args);
        },
        setPhotoUrl: async (...args) => {
            await announce(args[0], [(0, keys_1.isEmployeeId)(args[1]) ? args[1] : undefined]);
            return employees.setPhotoUrl(...args);
        },
        delete: async (...args) => {
            // A caller whose own durable message re-runs the delete opts out (DeleteEmployeeOptions).
            if (args[2]?.announce !== false) {
                await announce(args[0], [(0, keys_1.isEmployeeId)(args[1]) ? args[1] : undefined]);
            }
            return employees.delete(...args);
        },
    });
    return wrapped;
}
//# sourceMappingURL=announcingEmployees.js.map