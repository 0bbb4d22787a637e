/**
 * The department archive keeps its history bounded: it continues as new after every 2 pages of
 * 1,000 employee ids (chunk activities of 100), so the largest execution history the local durable
 * runtime stores is bounded by those 2 pages, however large the department (read back from the
 * task hub's History table).
 */
import { odata } from '@azure/data-tables';
import { historyTableName, parseHistoryRowKey } from '../../../tools/durable/keys';
import { readTextProperties } from '../../../tools/durable/largeText';
import type { HistoryEventJson } from '../../../tools/durable/historyEvents';
import type { RunningHost } from '../../support/host';
import { testClients } from '../../support/storage';
import { hostWith, isolatedSettings, pollUntilEnded, seedDepartment, send } from './support';

const HUB_SETTING = 'AzureFunctionsJobHost__extensions__durableTask__hubName';

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

/** Per execution of an instance: its committed events and their JSON size. */
async function executionHistories(
  taskHub: string,
  instanceId: string,
): Promise<{ events: number; chars: number }[]> {
  const parts = new Map<string, { part: number; text: string }[]>();
  for await (const entity of testClients()
    .table(historyTableName(taskHub))
    .listEntities<Record<string, unknown>>({
      queryOptions: { filter: odata`PartitionKey eq ${instanceId}` },
    })) {
    const key = parseHistoryRowKey(String(entity.rowKey));
    if (key?.kind !== 'episode') continue;
    const episode = `${key.executionId}/${key.episode}`;
    const list = parts.get(episode) ?? [];
    list.push({ part: key.part, text: readTextProperties(entity, 'Events') ?? '' });
    parts.set(episode, list);
  }
  const byExecution = new Map<string, { events: number; chars: number }>();
  for (const [episode, rows] of parts) {
    const text = rows
      .sort((a, b) => a.part - b.part)
      .map((row) => row.text)
      .join('');
    const execution = episode.split('/')[0]!;
    const sum = byExecution.get(execution) ?? { events: 0, chars: 0 };
    sum.events += (JSON.parse(text) as HistoryEventJson[]).length;
    sum.chars += text.length;
    byExecution.set(execution, sum);
  }
  return [...byExecution.values()];
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
