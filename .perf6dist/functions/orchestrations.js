"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.startIndexAudit = exports.startArchiveDepartment = exports.startMoveEmployee = void 0;
/**
 * Durable orchestrations (API.md "Orchestrations"): HTTP starters that answer 202 with the
 * Durable Functions status payload, and the registrations of the orchestrators and activities
 * whose logic lives in src/orchestrations/.
 */
const functions_1 = require("@azure/functions");
const df = __importStar(require("durable-functions"));
const zod_1 = require("zod");
const archiveActivities_1 = require("../src/orchestrations/archive/archiveActivities");
const archiveDepartmentOrchestrator_1 = require("../src/orchestrations/archive/archiveDepartmentOrchestrator");
const auditActivities_1 = require("../src/orchestrations/audit/auditActivities");
const auditOrchestrator_1 = require("../src/orchestrations/audit/auditOrchestrator");
const configuredServices_1 = require("../src/orchestrations/configuredServices");
const moveActivities_1 = require("../src/orchestrations/move/moveActivities");
const moveOrchestrator_1 = require("../src/orchestrations/move/moveOrchestrator");
const names_1 = require("../src/orchestrations/names");
const errors_1 = require("../src/errors");
const input_1 = require("./shared/input");
const http_1 = require("./shared/http");
const moveBody = zod_1.z.strictObject({
    toDepartment: input_1.departmentName,
});
/** Starts `orchestration` with `input` and answers 202 with the status payload. */
async function start(request, context, orchestration, input) {
    const client = df.getClient(context);
    const instanceId = await client.startNew(orchestration, { input });
    context.log(`Started ${orchestration} instance ${instanceId}.`);
    return client.createCheckStatusResponse(request, instanceId);
}
/** `POST /departments/{dept}/employees/{id}/move` `{"toDepartment"}` → 202 + status payload. */
exports.startMoveEmployee = (0, http_1.handleErrors)(async (request, context) => {
    const { dept, id } = (0, http_1.readParams)(request, input_1.employeeRoute);
    const { toDepartment } = await (0, http_1.readJson)(request, moveBody);
    if (toDepartment === dept) {
        throw new errors_1.ValidationError(`Employee ${id} is already in department "${dept}"; name another department.`, 'body.toDepartment', 'SameDepartment');
    }
    const input = { department: dept, employeeId: id, toDepartment };
    return start(request, context, names_1.Orchestrations.moveEmployee, input);
});
functions_1.app.http('startMoveEmployee', {
    route: 'departments/{dept}/employees/{id}/move',
    methods: ['POST'],
    authLevel: 'function',
    extraInputs: [df.input.durableClient()],
    handler: exports.startMoveEmployee,
});
/** `POST /departments/{dept}/archive` → 202 + status payload; output `{"archived": n}`. */
exports.startArchiveDepartment = (0, http_1.handleErrors)(async (request, context) => {
    const { dept } = (0, http_1.readParams)(request, input_1.departmentRoute);
    const input = { department: dept };
    return start(request, context, names_1.Orchestrations.archiveDepartment, input);
});
functions_1.app.http('startArchiveDepartment', {
    route: 'departments/{dept}/archive',
    methods: ['POST'],
    authLevel: 'function',
    extraInputs: [df.input.durableClient()],
    handler: exports.startArchiveDepartment,
});
const auditBody = zod_1.z.strictObject({ repair: zod_1.z.boolean().optional() });
/** `POST /maintenance/indexes/audit` `{"repair"}` → 202 + status payload. */
exports.startIndexAudit = (0, http_1.handleErrors)(async (request, context) => {
    const { repair } = await (0, http_1.readJson)(request, auditBody);
    const input = { repair: repair ?? false };
    return start(request, context, names_1.Orchestrations.auditIndexes, input);
});
functions_1.app.http('startIndexAudit', {
    route: 'maintenance/indexes/audit',
    methods: ['POST'],
    authLevel: 'function',
    extraInputs: [df.input.durableClient()],
    handler: exports.startIndexAudit,
});
df.app.orchestration(names_1.Orchestrations.moveEmployee, moveOrchestrator_1.moveEmployeeOrchestrator);
df.app.orchestration(names_1.Orchestrations.archiveDepartment, archiveDepartmentOrchestrator_1.archiveDepartmentOrchestrator);
df.app.orchestration(names_1.Orchestrations.auditIndexes, auditOrchestrator_1.auditIndexesOrchestrator);
/** Registers an activity whose handler takes the configured services and its input. */
function activity(name, handler) {
    df.app.activity(name, { handler: (input) => handler((0, configuredServices_1.configuredServices)(), input) });
}
activity(names_1.Activities.validateMove, moveActivities_1.validateMoveActivity);
activity(names_1.Activities.copyToTarget, moveActivities_1.copyToTargetActivity);
activity(names_1.Activities.reindexEmployee, moveActivities_1.reindexEmployeeActivity);
activity(names_1.Activities.removeFromSource, moveActivities_1.removeFromSourceActivity);
activity(names_1.Activities.listEmployeePage, archiveActivities_1.listEmployeePageActivity);
activity(names_1.Activities.archiveEmployee, archiveActivities_1.archiveEmployeeActivity);
activity(names_1.Activities.listDepartmentPage, auditActivities_1.listDepartmentPageActivity);
activity(names_1.Activities.auditDepartment, auditActivities_1.auditDepartmentActivity);
activity(names_1.Activities.auditOrgLastNames, auditActivities_1.auditOrgLastNamesActivity);
//# sourceMappingURL=orchestrations.js.map