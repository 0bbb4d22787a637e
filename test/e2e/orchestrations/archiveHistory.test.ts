/**
 * The department archive keeps its history bounded: it continues as new after every 2 pages of
 * employee ids, so the largest execution history the local durable runtime stores is bounded by
 * those 2 pages, however large the department (read back from the task hub's History table).
 *
 * The pages are 20 ids in chunks of 2 (`ARCHIVE_PAGE_SIZE`, `ARCHIVE_CHUNK_SIZE`): 10 chunks a
 * page, as with the defaults (1,000 and 100), so 20 and 60 employees make the same executions and
 * events as 1,000 and 3,000 would, at a fiftieth of the work.
 */
import type { RunningHost } from '../../support/host';
import {
  executionHistories,
  HUB_SETTING,
  hostWith,
  isolatedSettings,
  pollUntilEnded,
  seedDepartment,
  send,
} from './support';

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

describe('department archive history', () => {
  let host: RunningHost;
  const settings = isolatedSettings();

  beforeAll(async () => {
    host = await hostWith({ ...settings, ARCHIVE_PAGE_SIZE: '20', ARCHIVE_CHUNK_SIZE: '2' });
  });

  afterAll(async () => {
    await host?.stop();
  });

  async function archive(department: string, size: number) {
    await seedDepartment(host, department, people(size));
    const started = await send(host, 'POST', `/departments/${department}/archive`);
    expect(started.status).toBe(202);
    const status = await pollUntilEnded(host, String(started.json.statusUri), 120_000);
    expect(status).toMatchObject({
      runtimeStatus: 'Completed',
      output: { department, archived: size, notFound: 0 },
    });
    const histories = await executionHistories(settings[HUB_SETTING]!, status.id);
    return {
      executions: histories.length,
      largestEvents: Math.max(...histories.map((h) => h.events)),
      largestChars: Math.max(...histories.map((h) => h.chars)),
      totalEvents: histories.reduce((sum, h) => sum + h.events, 0),
    };
  }

  it('stores an execution history bounded by 2 pages whatever the size (1 and 3 pages of employees)', async () => {
    const small = await archive('Small', 20);
    const large = await archive('Large', 60);
    process.stdout.write(
      `archive history (local runtime): 1 page ${JSON.stringify(small)}; 3 pages ${JSON.stringify(large)}\n`,
    );
    expect(small.executions).toBe(1);
    // 2 pages per execution: 3 pages are 2 executions (2 pages, then 1).
    expect(large.executions).toBe(2);
    // About 2 events per chunk and per listing, plus episode markers: the largest execution
    // (2 pages, 20 chunks) holds about twice the 1-page one, and no more.
    expect(large.largestEvents).toBeLessThanOrEqual(150);
    expect(large.largestEvents).toBeLessThanOrEqual(small.largestEvents * 2.5);
    expect(large.largestChars).toBeLessThanOrEqual(small.largestChars * 2.5);
    expect(large.totalEvents).toBeGreaterThan(large.largestEvents);
  }, 300_000);
});
