/**
 * Durable orchestrations (API.md "Orchestrations"): HTTP starters that answer 202 with the
 * Durable Functions status payload, and the registrations of the orchestrators and activities
 * whose logic lives in src/orchestrations/.
 */
import { type HttpRequest, type InvocationContext } from '@azure/functions';
import * as df from 'durable-functions';
import { z } from 'zod';
import {
  archiveEmployeeActivity,
  listEmployeePageActivity,
} from '../src/orchestrations/archive/archiveActivities';
import {
  archiveDepartmentOrchestrator,
  type ArchiveDepartmentInput,
} from '../src/orchestrations/archive/archiveDepartmentOrchestrator';
import {
  auditDepartmentActivity,
  auditOrgLastNamesActivity,
  listDepartmentPageActivity,
} from '../src/orchestrations/audit/auditActivities';
import {
  auditIndexesOrchestrator,
  type AuditInput,
} from '../src/orchestrations/audit/auditOrchestrator';
import { configuredServices } from '../src/orchestrations/configuredServices';
import {
  copyToTargetActivity,
  reindexEmployeeActivity,
  removeFromSourceActivity,
  validateMoveActivity,
} from '../src/orchestrations/move/moveActivities';
import { moveEmployeeOrchestrator } from '../src/orchestrations/move/moveOrchestrator';
import type { MoveRequest } from '../src/orchestrations/move/moveRequest';
import { Activities, Orchestrations } from '../src/orchestrations/names';
import type { OrchestrationServices } from '../src/orchestrations/services';
import { ValidationError } from '../src/errors';
import { departmentName, departmentRoute, employeeRoute } from './shared/input';
import { readJson, readParams } from './shared/http';
import { admin } from '../src/identity/access';
import { protectedRoute } from './shared/route';

const moveBody = z.strictObject({
  toDepartment: departmentName,
});

/** Starts `orchestration` with `input` and answers 202 with the status payload. */
async function start(
  request: HttpRequest,
  context: InvocationContext,
  orchestration: string,
  input: unknown,
): Promise<ReturnType<df.DurableClient['createCheckStatusResponse']>> {
  const client = df.getClient(context);
  const instanceId = await client.startNew(orchestration, { input });
  context.log(`Started ${orchestration} instance ${instanceId}.`);
  return client.createCheckStatusResponse(request, instanceId);
}

/** `POST /departments/{dept}/employees/{id}/move` `{"toDepartment"}` → 202 + status payload. */
export const startMoveEmployee = protectedRoute('startMoveEmployee', {
  route: 'departments/{dept}/employees/{id}/move',
  methods: ['POST'],
  access: admin,
  extraInputs: [df.input.durableClient()],
  handler: async (request, context) => {
    const { dept, id } = readParams(request, employeeRoute);
    const { toDepartment } = await readJson(request, moveBody);
    if (toDepartment === dept) {
      throw new ValidationError(
        `Employee ${id} is already in department "${dept}"; name another department.`,
        'body.toDepartment',
        'SameDepartment',
      );
    }
    const input: MoveRequest = { department: dept, employeeId: id, toDepartment };
    return start(request, context, Orchestrations.moveEmployee, input);
  },
});

/** `POST /departments/{dept}/archive` → 202 + status payload; output `{"archived": n}`. */
export const startArchiveDepartment = protectedRoute('startArchiveDepartment', {
  route: 'departments/{dept}/archive',
  methods: ['POST'],
  access: admin,
  extraInputs: [df.input.durableClient()],
  handler: async (request, context) => {
    const { dept } = readParams(request, departmentRoute);
    const input: ArchiveDepartmentInput = { department: dept };
    return start(request, context, Orchestrations.archiveDepartment, input);
  },
});

const auditBody = z.strictObject({ repair: z.boolean().optional() });

/** `POST /maintenance/indexes/audit` `{"repair"}` → 202 + status payload. */
export const startIndexAudit = protectedRoute('startIndexAudit', {
  route: 'maintenance/indexes/audit',
  methods: ['POST'],
  access: admin,
  extraInputs: [df.input.durableClient()],
  handler: async (request, context) => {
    const { repair } = await readJson(request, auditBody);
    const input: AuditInput = { repair: repair ?? false };
    return start(request, context, Orchestrations.auditIndexes, input);
  },
});

df.app.orchestration(Orchestrations.moveEmployee, moveEmployeeOrchestrator);
df.app.orchestration(Orchestrations.archiveDepartment, archiveDepartmentOrchestrator);
df.app.orchestration(Orchestrations.auditIndexes, auditIndexesOrchestrator);

/** Registers an activity whose handler takes the configured services and its input. */
function activity<I, O>(
  name: string,
  handler: (services: OrchestrationServices, input: I) => Promise<O>,
): void {
  df.app.activity(name, { handler: (input: I) => handler(configuredServices(), input) });
}

activity(Activities.validateMove, validateMoveActivity);
activity(Activities.copyToTarget, copyToTargetActivity);
activity(Activities.reindexEmployee, reindexEmployeeActivity);
activity(Activities.removeFromSource, removeFromSourceActivity);
activity(Activities.listEmployeePage, listEmployeePageActivity);
activity(Activities.archiveEmployee, archiveEmployeeActivity);
activity(Activities.listDepartmentPage, listDepartmentPageActivity);
activity(Activities.auditDepartment, auditDepartmentActivity);
activity(Activities.auditOrgLastNames, auditOrgLastNamesActivity);
