/**
 * Durable orchestrations (API.md "Orchestrations"): HTTP starters that answer 202
 * `{"id", "statusUri"}`, the status route `GET /orchestrations/{id}`, and the registrations of
 * the orchestrators and activities whose logic lives in src/orchestrations/.
 *
 * No response carries the Durable management URLs of `createCheckStatusResponse`: in Azure they
 * hold the `durabletask_extension` system key, which lets its holder list, terminate, purge or
 * start any instance.
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { type HttpResponseInit, type InvocationContext } from '@azure/functions';
import * as df from 'durable-functions';
import { z } from 'zod';
import {
  ARCHIVE_CHUNK_SIZE,
  archiveEmployeeChunkActivity,
  EMPLOYEE_PAGE_SIZE,
  listEmployeePageActivity,
} from '../src/orchestrations/archive/archiveActivities';
import {
  archiveDepartmentOrchestrator,
  type ArchiveDepartmentInput,
} from '../src/orchestrations/archive/archiveDepartmentOrchestrator';
import {
  AUDIT_PAGE_SIZE,
  auditDepartmentPageActivity,
  auditOrgLastNamesActivity,
  listDepartmentPageActivity,
} from '../src/orchestrations/audit/auditActivities';
import {
  auditIndexesOrchestrator,
  type AuditInput,
} from '../src/orchestrations/audit/auditOrchestrator';
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
import {
  hasEnded,
  isOrchestrationId,
  readOrchestration,
  startInstance,
  type OrchestrationView,
} from '../src/orchestrations/status';
import { ValidationError } from '../src/domainErrors';
import { departmentName, departmentRoute, employeeRoute } from './shared/input';
import { json, readJson, readParams } from './shared/http';
import { admin } from '../src/identity/access';
import { protectedRoute } from './shared/route';
import { withServices } from './shared/services';
import { inActivityTrace, tracedInput, tracedOrchestrator } from './shared/orchestrationTrace';
import { RETRY_AFTER_SECONDS, started, statusUriOf } from './shared/orchestrationStarts';

const moveBody = z.strictObject({
  toDepartment: departmentName,
});

/**
 * Starts `orchestration` with `input` and answers 202 `{"id", "statusUri"}`, with `Location` set
 * to the status URI.
 *
 * @throws {UnavailableError} when the Durable extension answers the start with a server error.
 * @throws {Error} when the durable client cannot start the instance otherwise.
 */
async function start(
  context: InvocationContext,
  orchestration: string,
  input: unknown,
): Promise<HttpResponseInit> {
  const client = df.getClient(context);
  const id = await startInstance(client, orchestration, { input: tracedInput(input) });
  context.log(`Started ${orchestration} instance ${id}.`);
  const statusUri = statusUriOf(id);
  return json(202, { id, statusUri }, { location: statusUri, 'retry-after': RETRY_AFTER_SECONDS });
}

/** `POST /departments/{dept}/employees/{id}/move` `{"toDepartment"}` → 202 `{id, statusUri}`. */
export const startMoveEmployee = protectedRoute('startMoveEmployee', {
  route: 'departments/{dept}/employees/{id}/move',
  methods: ['POST'],
  access: admin,
  schemas: { params: employeeRoute, body: moveBody, responses: started },
  extraInputs: [df.input.durableClient()],
  handler: async ({ request, context }) => {
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
    return start(context, Orchestrations.moveEmployee, input);
  },
});

/** `POST /departments/{dept}/archive` → 202 `{id, statusUri}`; output `{"archived": n}`. */
export const startArchiveDepartment = protectedRoute('startArchiveDepartment', {
  route: 'departments/{dept}/archive',
  methods: ['POST'],
  access: admin,
  schemas: { params: departmentRoute, responses: started },
  extraInputs: [df.input.durableClient()],
  uses: (s) => s.config().archive,
  handler: async ({ request, context, use: { pageSize, chunkSize } }) => {
    const { dept } = readParams(request, departmentRoute);
    // The sizes travel in the input: every replay and continuation uses those it started with.
    const input: ArchiveDepartmentInput = {
      department: dept,
      ...(pageSize === EMPLOYEE_PAGE_SIZE ? {} : { pageSize }),
      ...(chunkSize === ARCHIVE_CHUNK_SIZE ? {} : { chunkSize }),
    };
    return start(context, Orchestrations.archiveDepartment, input);
  },
});

const auditBody = z.strictObject({
  repair: z.boolean().optional(),
  // Employees (or stored entries) per audit activity: smaller pages, more and shorter activities.
  pageSize: z.number().int().min(1).max(AUDIT_PAGE_SIZE).optional(),
});

/** `POST /maintenance/indexes/audit` `{"repair", "pageSize"}` → 202 `{id, statusUri}`. */
export const startIndexAudit = protectedRoute('startIndexAudit', {
  route: 'maintenance/indexes/audit',
  methods: ['POST'],
  access: admin,
  schemas: { body: auditBody, responses: started },
  extraInputs: [df.input.durableClient()],
  handler: async ({ request, context }) => {
    const { repair, pageSize } = await readJson(request, auditBody);
    const input: AuditInput = { repair: repair ?? false, ...(pageSize ? { pageSize } : {}) };
    return start(context, Orchestrations.auditIndexes, input);
  },
});

const orchestrationRoute = z.object({
  id: z.string().refine(isOrchestrationId, 'use the id a start returned (32 hex digits)'),
});

/**
 * `GET /orchestrations/{id}` → 200 `{id, name, runtimeStatus, output?, failure?}`; 404
 * `OrchestrationNotFound`; `retry-after` while the instance has not ended.
 */
export const getOrchestration = protectedRoute('getOrchestration', {
  route: 'orchestrations/{id}',
  methods: ['GET'],
  access: admin,
  schemas: {
    params: orchestrationRoute,
    responses: {
      200: {
        description:
          'Its status; `output` once Completed, `failure` once Failed, `progress` (what the orchestrator last reported of its progress) once it has reported some.',
        body: z.strictObject({
          id: z.string(),
          name: z.string(),
          runtimeStatus: z.string(),
          output: z.unknown().optional(),
          failure: z.string().optional(),
          progress: z.unknown().optional(),
        }) satisfies z.ZodType<OrchestrationView>,
        headers: {
          'retry-after': {
            description: 'Seconds to wait before asking again, while it has not ended.',
            optional: true,
          },
        },
      },
    },
  },
  extraInputs: [df.input.durableClient()],
  handler: async ({ request, context }) => {
    const { id } = readParams(request, orchestrationRoute);
    const view = await readOrchestration(df.getClient(context), id);
    return json(200, view, hasEnded(view) ? {} : { 'retry-after': RETRY_AFTER_SECONDS });
  },
});

df.app.orchestration(Orchestrations.moveEmployee, tracedOrchestrator(moveEmployeeOrchestrator));
df.app.orchestration(
  Orchestrations.archiveDepartment,
  tracedOrchestrator(archiveDepartmentOrchestrator),
);
df.app.orchestration(Orchestrations.auditIndexes, tracedOrchestrator(auditIndexesOrchestrator));

/** Registers an activity whose handler takes the configured services and its input. */
function activity<I, O>(
  name: string,
  handler: (services: OrchestrationServices, input: I) => Promise<O>,
): void {
  df.app.activity(name, {
    handler: withServices(
      (s) => s.orchestrations(),
      (orchestrations, input: unknown) =>
        inActivityTrace(name, input, (own) => handler(orchestrations, own as I)),
    ),
  });
}

activity(Activities.validateMove, validateMoveActivity);
activity(Activities.copyToTarget, copyToTargetActivity);
activity(Activities.reindexEmployee, reindexEmployeeActivity);
activity(Activities.removeFromSource, removeFromSourceActivity);
activity(Activities.listEmployeePage, listEmployeePageActivity);
activity(Activities.archiveEmployeeChunk, archiveEmployeeChunkActivity);
activity(Activities.listDepartmentPage, listDepartmentPageActivity);
activity(Activities.auditDepartment, auditDepartmentPageActivity);
activity(Activities.auditOrgLastNames, auditOrgLastNamesActivity);
