/**
 * The department archive keeps its history bounded: it continues as new after every 2 pages of
 * 1,000 employee ids (chunk activities of 100), so the largest execution history the local durable
 * runtime stores is bounded by those 2 pages, however large the department (read back from the
 * task hub's History table).
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
    host = await hostWith(settings);
  }, 60_000);

  afterAll(async () => {
    await host?.stop();
  });

  async function archive(department: string, size: number) {
    await seedDepartment(host, department, people(size));
    const started = await send(host, 'POST', `/departments/${department}/archive`);
    expect(started.status).toBe(202);
    const status = await pollUntilEnded(host, String(started.json.statusUri), 240_000);
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

  it('stores an execution history bounded by 2 pages whatever the size (1,000 and 3,000 employees)', async () => {
    const small = await archive('Small', 1_000);
    const large = await archive('Large', 3_000);
    process.stdout.write(
      `archive history (local runtime): 1,000 employees ${JSON.stringify(small)}; 3,000 employees ${JSON.stringify(large)}\n`,
    );
    expect(small.executions).toBe(1);
    // Pages of 1,000, 2 per execution: 3,000 employees are 2 executions (2 pages, then 1).
    expect(large.executions).toBe(2);
    // About 2 events per chunk of 100 and per listing, plus episode markers: the largest
    // execution (2 pages, 20 chunks) holds about twice the 1-page one, and no more.
    expect(large.largestEvents).toBeLessThanOrEqual(150);
    expect(large.largestEvents).toBeLessThanOrEqual(small.largestEvents * 2.5);
    expect(large.largestChars).toBeLessThanOrEqual(small.largestChars * 2.5);
    expect(large.totalEvents).toBeGreaterThan(large.largestEvents);
  }, 600_000);
});
