"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.signTableSas = signTableSas;
/**
 * Signs a read-only table SAS limited to one partition (and optionally a RowKey range in it).
 *
 * `spk`/`epk` (and `srk`/`erk`) are part of the string to sign, so a client cannot widen the
 * range without breaking the signature. Bound to a stored access policy, the token leaves the
 * permission to the policy and keeps its own start and expiry; unbound, it carries all three.
 */
const data_tables_1 = require("@azure/data-tables");
/** The SAS query string (no leading `?`). */
function signTableSas(scope, signing) {
    const credential = new data_tables_1.AzureNamedKeyCredential(signing.key.accountName, signing.key.accountKey);
    return (0, data_tables_1.generateTableSas)(scope.table, credential, {
        startsOn: signing.window.startsOn,
        expiresOn: signing.window.expiresOn,
        ...(signing.policyId ? { identifier: signing.policyId } : { permissions: { query: true } }),
        protocol: signing.protocol,
        startPartitionKey: scope.partitionKey,
        endPartitionKey: scope.partitionKey,
        ...(scope.rowKeyStart !== undefined ? { startRowKey: scope.rowKeyStart } : {}),
        ...(scope.rowKeyEnd !== undefined ? { endRowKey: scope.rowKeyEnd } : {}),
    });
}
//# sourceMappingURL=tableSas.js.map