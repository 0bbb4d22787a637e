/**
 * Archiving a whole department through the local host: 100 employees with 10% of the app's
 * storage requests failing (500/503/timeouts/resets, including resets after storage applied the
 * request) end with all 100 in the archive exactly once and none left in the directory; and a
 * host killed mid-orchestration is replaced by a new one that resumes and completes it.
 *
 * Small pages and chunks (`ARCHIVE_PAGE_SIZE`, `ARCHIVE_CHUNK_SIZE`) give a few dozen employees the
 * pages, chunks and waves that thousands have with the defaults (the bench's scale case archives
 * thousands).
 */
import { odata } from '@azure/data-tables';
import { startFaultProxy, type FaultProxy } from '../../../tools/faultProxy/faultProxy';
import type { RunningHost } from '../../support/host';
import { azuriteConnectionString, testClients } from '../../support/storage';
import { hostWith, isolatedSettings, pollUntilEnded, seedDepartment, send } from './support';

function people(count: number): { employeeId: string; lastName: string; email: string }[] {
  return Array.from({ length: count }, (_, i) => {
    const id = String(i + 1).padStart(6, '0');
    return {
      employeeId: id,
      lastName: ['Jones', 'Smith', 'Ng'][i % 3]!,
      email: `e${id}@contoso.com`,
    };
  });
}

async function archivedIds(table: string, department: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const e of testClients()
    .table(table)
    .listEntities<Record<string, unknown>>({
      queryOptions: { filter: odata`PartitionKey eq ${department}` },
    })) {
    if (String(e.rowKey).startsWith('empid_')) ids.push(String(e.EmployeeId));
  }
  return ids.sort();
}

/** How many employees of `department` are archived (0 before the archive table exists). */
async function archivedSoFar(table: string, department: string): Promise<number> {
  try {
    return (await archivedIds(table, department)).length;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return 0;
    throw error;
  }
}

describe('department archive through the host', () => {
  let proxy: FaultProxy;
  let host: RunningHost;
  const settings = isolatedSettings();

  beforeAll(async () => {
    proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
    host = await hostWith({
      ...settings,
      // The app's storage goes through the proxy; the durable runtime's own state does not
      // (this test is about the activities' idempotency, not the runtime's).
      AzureWebJobsStorage: proxy.connectionString,
      DurableStorage: azuriteConnectionString(),
      AzureFunctionsJobHost__extensions__durableTask__storageProvider__connectionStringName:
        'DurableStorage',
      // A held request ends when the proxy drops it (1.2 s), so the per-try deadline keeps its
      // default: a short one also gave up on a loaded emulator's slow answers.
      STORAGE_RETRY_DELAY_MS: '50',
      STORAGE_MAX_RETRIES: '8',
      // 2 pages of 50, chunks of 10: 10 chunk activities in 5 waves.
      ARCHIVE_PAGE_SIZE: '50',
      ARCHIVE_CHUNK_SIZE: '10',
    });
    await seedDepartment(host, 'Sales', people(100));
  });
  afterAll(async () => {
    await host?.stop();
    await proxy?.stop();
  });

  it('archives 100 employees exactly once with 10% of storage requests failing', async () => {
    proxy.resetCounts();
    proxy.setFaults({
      rate: 0.1,
      kinds: ['500', '503', '503-retry-after', 'timeout', 'reset', 'reset-after'],
      timeoutMs: 1200,
      seed: 9,
    });
    const started = await send(host, 'POST', '/departments/Sales/archive');
    expect(started.status).toBe(202);
    const status = await pollUntilEnded(host, String(started.json.statusUri), 150_000);
    proxy.setFaults(null);
    const counts = proxy.counts();
    console.log(
      `archive of 100 with 10% faults: ${counts.requests} app storage requests, ` +
        `${counts.faultsInjected} faults injected`,
    );
    expect(status).toMatchObject({
      runtimeStatus: 'Completed',
      output: { department: 'Sales', archived: 100, notFound: 0 },
    });
    expect(counts.faultsInjected).toBeGreaterThan(0);
    expect(await archivedIds(settings.ARCHIVE_TABLE!, 'Sales')).toEqual(
      people(100).map((p) => p.employeeId),
    );
    expect(await archivedIds(settings.EMPLOYEES_TABLE!, 'Sales')).toEqual([]);
    expect((await send(host, 'GET', '/departments/Sales')).json.employeeCount).toBe(0);
  }, 180_000);
});

describe('a host killed mid-orchestration', () => {
  it('is replaced by a new host that resumes the department archive and completes it', async () => {
    // Chunks of 4, 2 at a time: 48 employees are 6 waves, so the kill lands mid-way.
    const settings: Record<string, string> = {
      ...isolatedSettings(),
      ARCHIVE_PAGE_SIZE: '24',
      ARCHIVE_CHUNK_SIZE: '4',
    };
    const first = await hostWith(settings);
    let statusUri: string;
    try {
      await seedDepartment(first, 'Ops', people(48));
      const started = await send(first, 'POST', '/departments/Ops/archive');
      expect(started.status).toBe(202);
      statusUri = String(started.json.statusUri);
      // Wait until it is under way (a first chunk archived), then crash the host. (The test's
      // timeout is the limit: the archive gets under way however slow the machine.)
      while ((await archivedSoFar(settings.ARCHIVE_TABLE!, 'Ops')) < 4) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      first.kill();
      await first.exited();
    }
    const left = (await archivedIds(settings.EMPLOYEES_TABLE!, 'Ops')).length;
    expect(left).toBeGreaterThan(0);

    const second = await hostWith(settings);
    try {
      const status = await pollUntilEnded(second, statusUri, 150_000);
      expect(status).toMatchObject({
        runtimeStatus: 'Completed',
        output: { department: 'Ops', archived: 48, notFound: 0 },
      });
      expect(await archivedIds(settings.ARCHIVE_TABLE!, 'Ops')).toEqual(
        people(48).map((p) => p.employeeId),
      );
      expect(await archivedIds(settings.EMPLOYEES_TABLE!, 'Ops')).toEqual([]);
    } finally {
      await second.stop();
    }
  }, 240_000);
});
