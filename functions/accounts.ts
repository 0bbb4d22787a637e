/**
 * Storage accounts (API.md "Storage accounts", docs/accounts.md): `GET /storage/accounts`, and
 * `POST /departments/{dept}/relocate`, which claims the department and starts the relocation
 * orchestration (registered here with its activities; the steps live in src/accounts/relocation/).
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import * as df from 'durable-functions';
import { z } from 'zod';
import { alreadyThere } from '../src/accounts/accountErrors';
import { accountsView } from '../src/accounts/accountsView';
import {
  abandonRelocation,
  startRelocation,
  type RelocationDeps,
} from '../src/accounts/relocation/relocationSteps';
import { randomUUID } from 'node:crypto';
import { admin } from '../src/identity/access';
import { Activities, Orchestrations } from '../src/orchestrations/names';
import {
  relocateDepartmentOrchestrator,
  type RelocateInput,
} from '../src/orchestrations/relocation/relocateOrchestrator';
import {
  relocationCopyActivity,
  relocationDeleteActivity,
  relocationFreezeActivity,
  relocationSwitchActivity,
  relocationSyncActivity,
} from '../src/orchestrations/relocation/relocationActivities';
import { readWholeRange } from '../src/storage/tables/rangePages';
import { DEPARTMENT_LIST_PARTITION_KEY } from '../src/storage/keys/tables/employees';
import { ensureTable } from '../src/storage/createOnce';
import { departmentRoute } from './shared/input';
import { json, readJson, readParams } from './shared/http';
import { inActivityTrace, tracedInput, tracedOrchestrator } from './shared/orchestrationTrace';
import { RETRY_AFTER_SECONDS, started, statusUriOf } from './shared/orchestrationStarts';
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
  uses: (s) => s,
  handler: async ({ use: { config, clients, placement } }) => {
    const items = await accountsView(placement(), async () => {
      // One account: its departments are those of the listing (one partition).
      const table = clients().table(config().tables.employees);
      await ensureTable(table);
      const listed = await readWholeRange(
        table,
        { partitionKey: DEPARTMENT_LIST_PARTITION_KEY, ge: ' ', lt: '~' },
        ['RowKey'],
      );
      return listed.length;
    });
    return json(200, { items });
  },
});

const relocateBody = z.strictObject({ account: z.string().min(1).max(64) });

/**
 * `POST /departments/{dept}/relocate` `{"account"}` → 202 `{id, statusUri}`; 400
 * `UnknownAccount`, 404 `DepartmentNotFound`, 409 `AlreadyThere` or `RelocationRunning`.
 */
export const startRelocateDepartment = protectedRoute('startRelocateDepartment', {
  route: 'departments/{dept}/relocate',
  methods: ['POST'],
  access: admin,
  schemas: { params: departmentRoute, body: relocateBody, responses: started, errors: [404, 409] },
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
    const plan = await startRelocation(deps, dept, account, randomUUID().replace(/-/g, ''));
    const input: RelocateInput = { plan, cacheMs };
    try {
      await df.getClient(context).startNew(Orchestrations.relocateDepartment, {
        instanceId: plan.relocation,
        input: tracedInput(input),
      });
    } catch (error) {
      await abandonRelocation(deps, plan);
      throw error;
    }
    context.log(`Started the relocation of "${dept}" to ${account}: instance ${plan.relocation}.`);
    const statusUri = statusUriOf(plan.relocation);
    return json(
      202,
      { id: plan.relocation, statusUri },
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
