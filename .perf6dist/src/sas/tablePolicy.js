"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SasPolicyManager = exports.TABLE_SAS_PERMISSION = exports.MAX_SIGNED_IDENTIFIERS = void 0;
const errors_1 = require("../errors");
const errors_2 = require("../storage/errors");
const keys_1 = require("../storage/keys");
const lifetime_1 = require("./lifetime");
/** The service allows at most five signed identifiers per table. */
exports.MAX_SIGNED_IDENTIFIERS = 5;
/** The only permission table SAS ever grant: query (read). */
exports.TABLE_SAS_PERMISSION = 'r';
/** Lifetime of an emulator policy (Azurite needs an expiry; Azure policies carry none). */
const EMULATOR_POLICY_MS = 365 * 24 * 3_600_000;
/** Reads, creates and rotates the stored access policies of the tables it is given. */
class SasPolicyManager {
    options;
    cache = new Map();
    loading = new Map();
    constructor(options) {
        this.options = options;
    }
    /**
     * The policy id new tokens on this table are bound to; creates the policies on first use.
     *
     * @throws {NotFoundError} `TableNotFound` when the table does not exist.
     * @throws {ConflictError} `SasPolicyLimit` when other policies leave no room for ours.
     */
    async currentPolicyId(table) {
        const cached = this.cache.get(table.tableName);
        if (cached && cached.until > Date.now())
            return cached.policyId;
        let pending = this.loading.get(table.tableName);
        if (!pending) {
            pending = this.loadOrCreate(table).finally(() => this.loading.delete(table.tableName));
            this.loading.set(table.tableName, pending);
        }
        return pending;
    }
    /**
     * Revokes every token bound to the current generation: deletes it, promotes the next one and
     * creates a new next one.
     *
     * @throws {NotFoundError} `TableNotFound` when the table does not exist.
     * @throws {ConflictError} `SasPolicyLimit` when other policies leave no room for ours.
     */
    async rotate(table) {
        const { ours, foreign } = await this.read(table);
        const current = ours[0];
        const promoted = ours[1]?.generation ?? (ours.at(-1)?.generation ?? 0) + 1;
        const kept = ours.filter((p) => p.generation === promoted).map((p) => p.identifier);
        const next = kept.length > 0 ? [...kept] : [this.newPolicy(promoted)];
        next.push(this.newPolicy(promoted + 1));
        await this.write(table, [...foreign, ...next]);
        const policyId = (0, keys_1.sasPolicyId)(promoted);
        this.remember(table.tableName, policyId);
        return {
            table: table.tableName,
            policyId,
            ...(current ? { revokedPolicyId: current.identifier.id } : {}),
        };
    }
    async loadOrCreate(table) {
        const { ours, foreign } = await this.read(table);
        const current = ours[0];
        let policyId;
        if (current && ours.length >= 2) {
            policyId = current.identifier.id;
        }
        else {
            // First use (or someone deleted the next generation): make sure current and next exist.
            const generation = current?.generation ?? 1;
            const policies = [
                current?.identifier ?? this.newPolicy(generation),
                this.newPolicy(generation + 1),
            ];
            await this.write(table, [...foreign, ...policies]);
            policyId = (0, keys_1.sasPolicyId)(generation);
        }
        this.remember(table.tableName, policyId);
        return policyId;
    }
    remember(tableName, policyId) {
        this.cache.set(tableName, { policyId, until: Date.now() + this.options.cacheMs });
    }
    newPolicy(generation) {
        if (!this.options.emulator) {
            return { id: (0, keys_1.sasPolicyId)(generation), accessPolicy: { permission: exports.TABLE_SAS_PERMISSION } };
        }
        const now = this.options.now().getTime();
        return {
            id: (0, keys_1.sasPolicyId)(generation),
            accessPolicy: {
                permission: exports.TABLE_SAS_PERMISSION,
                start: new Date(now - lifetime_1.CLOCK_SKEW_MS),
                expiry: new Date(now + EMULATOR_POLICY_MS),
            },
        };
    }
    async read(table) {
        const identifiers = await (0, errors_2.withStorageErrors)(() => table.getAccessPolicy(), {
            notFound: { code: 'TableNotFound', message: `Table ${table.tableName} does not exist.` },
        });
        const ours = [];
        const foreign = [];
        for (const identifier of identifiers) {
            const generation = (0, keys_1.parseSasPolicyId)(identifier.id);
            if (generation === undefined)
                foreign.push(identifier);
            else
                ours.push({ generation, identifier });
        }
        ours.sort((a, b) => a.generation - b.generation);
        return { ours, foreign };
    }
    async write(table, identifiers) {
        if (identifiers.length > exports.MAX_SIGNED_IDENTIFIERS) {
            throw new errors_1.ConflictError('SasPolicyLimit', `Table ${table.tableName} already has ${identifiers.length - 2} other stored access policies; ` +
                `a table holds at most ${exports.MAX_SIGNED_IDENTIFIERS}, and SAS issuance needs two.`);
        }
        await (0, errors_2.withStorageErrors)(() => table.setAccessPolicy(identifiers), {
            notFound: { code: 'TableNotFound', message: `Table ${table.tableName} does not exist.` },
        });
    }
}
exports.SasPolicyManager = SasPolicyManager;
//# sourceMappingURL=tablePolicy.js.map