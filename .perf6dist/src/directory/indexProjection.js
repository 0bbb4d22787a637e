"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.expectedSamePartitionIndexes = expectedSamePartitionIndexes;
const keys_1 = require("../storage/keys");
const employeeEntity_1 = require("./employeeEntity");
const entityTypes_1 = require("./entityTypes");
const lastNameIndex_1 = require("./lastNameIndex");
/**
 * Computes the email copies and last-name index entities that the given primary employee entities
 * (`Employee.v1`, any departments) imply. Other entity types in the input are ignored.
 *
 * @throws {ConflictError} `LastNameIndexFull` if one last name has more ids than an index entity holds.
 */
function expectedSamePartitionIndexes(primaries) {
    const emailCopies = [];
    const byName = new Map();
    for (const primary of primaries) {
        if (!(0, entityTypes_1.isEntityOfType)(primary, entityTypes_1.EntityTypes.employee))
            continue;
        const data = (0, employeeEntity_1.readEmployeeData)(primary);
        if (!data)
            continue;
        emailCopies.push((0, employeeEntity_1.emailCopyEntity)(primary));
        const lastName = (0, keys_1.normalizeLastName)(data.lastName);
        const key = `${primary.partitionKey}\u0001${lastName}`;
        const group = byName.get(key) ?? { partitionKey: primary.partitionKey, lastName, ids: [] };
        group.ids.push(data.employeeId);
        byName.set(key, group);
    }
    const lastNameIndexes = [...byName.values()].map((group) => (0, lastNameIndex_1.lastNameIndexEntity)(group.partitionKey, {
        lastName: group.lastName,
        ids: (0, lastNameIndex_1.normaliseIds)(group.ids),
    }));
    return { emailCopies, lastNameIndexes };
}
//# sourceMappingURL=indexProjection.js.map