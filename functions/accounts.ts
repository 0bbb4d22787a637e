/**
 * Storage accounts (API.md "Storage accounts", docs/accounts.md): `GET /storage/accounts`, and
 * `POST /departments/{dept}/relocate`, which claims the department and starts the relocation
 * orchestration (registered here with its activities; the steps live in src/accounts/relocation/).
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import * as df from 'durable-functions';
import { z } from 'zod';
import { alreadyThere, RelocationRunningError } from '../src/accounts/accountErrors';
import type { RelocationDeps } from '../src/accounts/relocation/relocationSteps';
import { randomUUID } from 'node:crypto';
import { admin } from '../src/identity/access';
import { Activities, Orchestrations } from '../src/orchestrations/names';
import { relocateDepartmentOrchestrator } from '../src/orchestrations/relocation/relocateOrchestrator';
import {
  relocationCopyActivity,
  relocationDeleteActivity,
  relocationFreezeActivity,
  relocationRollbackActivity,
  relocationSwitchActivity,
  relocationSyncActivity,
} from '../src/orchestrations/relocation/relocationActivities';
import {
  relocateOrResume,
  type RelocationInstances,
} from '../src/orchestrations/relocation/relocationStart';
import { isInstanceNotFound, startInstance } from '../src/orchestrations/status';
import { departmentRoute } from './shared/input';
import { errorBody, json, readJson, readParams } from './shared/http';
import { inActivityTrace, tracedInput, tracedOrchestrator } from './shared/orchestrationTrace';
import { RETRY_AFTER_SECONDS, startedHeaders, statusUriOf } from './shared/orchestrationStarts';
import { protectedRoute } from './shared/route';
import { withServices } from './shared/services';

const accountJson = z.strictObject({
  name: z.string(),
  endpoints: z.strictObject({ table: z.string(), blob: z.string(), queue: z.string() }),
  departments: z.number().int().min(0),
  weight: z.number().int().min(0),
});

const accountsListed = {
  description: 'The accounts data is spread over, home first.',
  body: z.strictObject({ items: z.array(accountJson) }),
};

/** `GET /storage/accounts` → `{items: [{name, endpoints, departments, weight}]}` (no keys). */
export const listStorageAccounts = protectedRoute('listStorageAccounts', {
  route: 'storage/accounts',
  methods: ['GET'],
  access: admin,
  schemas: { responses: { 200: accountsListed } },
  uses: (s) => s.storageAccounts(),
  handler: async ({ use: storageAccounts }) => {
    const items = await storageAccounts();
    return json(200, { items });
  },
});

const relocateBody = z.strictObject({ account: z.string().min(1).max(64) });

const relocationState = {
  id: z.string(),
  statusUri: z.string(),
  phase: z
    .string()
    .describe('copying, frozen, deleting (switched), rollingBack (failed before its switch)'),
};

const relocateResponses = {
  202: {
    description:
      'Started, or a relocation that had stopped (failed, terminated) resumed under its own id (`resumed`): poll `statusUri`.',
    body: z.strictObject({ ...relocationState, resumed: z.boolean() }),
    headers: startedHeaders,
  },
  409: {
    description:
      '`AlreadyThere`, or `RelocationRunning`: a relocation holds the department (running, or stopped and to be resumed with its own account); `relocation` names it.',
    body: z.strictObject({
      error: z.strictObject({ code: z.string(), message: z.string() }),
      relocation: z
        .strictObject({ ...relocationState, runtimeStatus: z.string().optional() })
        .optional(),
    }),
  },
};

/** The Durable client as the relocation's start uses it. */
function instancesOf(client: df.DurableClient): RelocationInstances {
  return {
    status: async (id) => {
      try {
        const status = await client.getStatus(id, { showInput: true });
        return { runtimeStatus: String(status.runtimeStatus), input: status.input };
      } catch (error) {
        if (isInstanceNotFound(error)) return undefined;
        throw error;
      }
    },
    start: async (id, input) => {
      // A start its throttled extension refuses is a 503 UnavailableError, never a 500.
      await startInstance(client, Orchestrations.relocateDepartment, {
        instanceId: id,
        input: tracedInput(input),
      });
    },
  };
}

/**
 * `POST /departments/{dept}/relocate` `{"account"}` → 202 `{id, statusUri, phase, resumed}`
 * (started, or the stopped relocation that holds the department resumed); 400 `UnknownAccount`,
 * 404 `DepartmentNotFound`, 409 `AlreadyThere` or `RelocationRunning` (with `relocation`).
 */
export const startRelocateDepartment = protectedRoute('startRelocateDepartment', {
  route: 'departments/{dept}/relocate',
  methods: ['POST'],
  access: admin,
  schemas: {
    params: departmentRoute,
    body: relocateBody,
    responses: relocateResponses,
    errors: [404],
  },
  extraInputs: [df.input.durableClient()],
  uses: (s) => ({
    placement: s.placement(),
    directory: s.directory(),
    deps: s.relocation(),
    cacheMs: s.config().accounts.placementCacheMs,
  }),
  handler: async ({ request, context, use: { placement, directory, deps, cacheMs } }) => {
    const { dept } = readParams(request, departmentRoute);
    const { account } = await readJson(request, relocateBody);
    placement.accounts.require(account);
    if (!placement.spread) {
      // One account: the department lives in it (or nowhere).
      await directory.departments.get(dept);
      throw alreadyThere(dept, account);
    }
    let answer;
    try {
      answer = await relocateOrResume(deps, instancesOf(df.getClient(context)), {
        department: dept,
        to: account,
        cacheMs,
        newId: () => randomUUID().replace(/-/g, ''),
      });
    } catch (error) {
      if (!(error instanceof RelocationRunningError)) throw error;
      const { relocation: id, phase, runtimeStatus } = error;
      return json(409, {
        ...(errorBody(error.code, error.message) as object),
        relocation: {
          id,
          statusUri: statusUriOf(id),
          phase,
          ...(runtimeStatus ? { runtimeStatus } : {}),
        },
      });
    }
    const verb = answer.resumed ? `Resumed (${answer.phase})` : 'Started';
    context.log(`${verb} the relocation of "${dept}" to ${account}: instance ${answer.id}.`);
    const statusUri = statusUriOf(answer.id);
    return json(
      202,
      { ...answer, statusUri },
      { location: statusUri, 'retry-after': RETRY_AFTER_SECONDS },
    );
  },
});

df.app.orchestration(
  Orchestrations.relocateDepartment,
  tracedOrchestrator(relocateDepartmentOrchestrator),
);

/** Registers a relocation activity over the configured relocation dependencies. */
function activity<I, O>(
  name: string,
  handler: (deps: RelocationDeps, input: I) => Promise<O>,
): void {
  df.app.activity(name, {
    handler: withServices(
      (s) => s.relocation(),
      (relocation, input: unknown) =>
        inActivityTrace(name, input, (own) => handler(relocation, own as I)),
    ),
  });
}

activity(Activities.relocationCopy, relocationCopyActivity);
activity(Activities.relocationFreeze, relocationFreezeActivity);
activity(Activities.relocationSync, relocationSyncActivity);
activity(Activities.relocationSwitch, relocationSwitchActivity);
activity(Activities.relocationDelete, relocationDeleteActivity);
activity(Activities.relocationRollback, relocationRollbackActivity);
