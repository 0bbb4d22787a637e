"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PHOTO_BLOB_PROPERTY = void 0;
exports.employeeEntityPhotoLocator = employeeEntityPhotoLocator;
const errors_1 = require("../storage/errors");
const keys_1 = require("../storage/keys");
/** Name of the employee entity property that holds the current photo's blob name. */
exports.PHOTO_BLOB_PROPERTY = 'PhotoBlob';
/** A {@link PhotoLocator} that reads `PhotoBlob` from the employee entity in `employees`. */
function employeeEntityPhotoLocator(employees) {
    return {
        async currentPhotoBlob(department, employeeId) {
            const partitionKey = (0, keys_1.departmentPartitionKey)(department);
            const rowKey = (0, keys_1.employeeRowKey)(employeeId);
            const entity = await (0, errors_1.withStorageErrors)(async () => {
                try {
                    return await employees.getEntity(partitionKey, rowKey, {
                        queryOptions: { select: [exports.PHOTO_BLOB_PROPERTY] },
                    });
                }
                catch (error) {
                    if ((0, errors_1.isNotFound)(error))
                        return undefined;
                    throw error;
                }
            });
            const blob = entity?.[exports.PHOTO_BLOB_PROPERTY];
            return typeof blob === 'string' && blob !== '' ? blob : undefined;
        },
    };
}
//# sourceMappingURL=photoLocator.js.map