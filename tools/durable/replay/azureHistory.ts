/**
 * Reads the rows of a real task hub's History table (DurableTask.AzureStorage) into the history
 * events the local runtime replays — the same JSON the extension hands a JavaScript orchestrator.
 * The row format (Azure/durabletask, src/DurableTask.AzureStorage/Tracking/
 * AzureTableTrackingStore.cs and TableEntityConverter.cs): one row per event, RowKey = the
 * event's position as 16 hex digits, a `sentinel` row per instance, EventType and
 * OrchestrationStatus as enum names, the event's Timestamp stored as `_Timestamp`. Payloads the
 * real hub moved to blobs (`...BlobName` properties) are not read. Pure.
 */
import { EventType, type HistoryEventJson } from './historyEvents';

/** One History table row as the Tables REST API returns it. */
export type AzureHistoryRow = Record<string, unknown>;

/** The row is not a history event of the real extension's format. */
export class AzureHistoryFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AzureHistoryFormatError';
  }
}

const TEXT_FIELDS = ['Name', 'Input', 'Result', 'Reason', 'Details', 'Version'] as const;
const NUMBER_FIELDS = ['TaskScheduledId', 'TimerId'] as const;
const STATUSES = new Set(['Completed', 'Failed', 'ContinuedAsNew']);

/**
 * The events of one execution, oldest first.
 *
 * @param executionId - which execution to read; by default the one the sentinel row names (or the
 *   first row's).
 * @throws {AzureHistoryFormatError} for an unknown event type or a row without its key fields.
 */
export function fromAzureHistoryRows(
  rows: readonly AzureHistoryRow[],
  executionId?: string,
): HistoryEventJson[] {
  const sentinel = rows.find((row) => row.RowKey === 'sentinel');
  const events = rows.filter((row) => row.RowKey !== 'sentinel');
  const execution =
    executionId ?? stringOf(sentinel?.ExecutionId) ?? stringOf(events[0]?.ExecutionId);
  return events
    .filter((row) => execution === undefined || row.ExecutionId === execution)
    .sort((a, b) => String(a.RowKey).localeCompare(String(b.RowKey)))
    .map(toEvent);
}

function toEvent(row: AzureHistoryRow): HistoryEventJson {
  const typeName = row.EventType;
  const eventType =
    typeof typeName === 'string' && typeName in EventType
      ? EventType[typeName as keyof typeof EventType]
      : undefined;
  if (eventType === undefined) {
    throw new AzureHistoryFormatError(
      `Row ${String(row.RowKey)} has an unknown EventType ${JSON.stringify(typeName)}.`,
    );
  }
  const stamp = stringOf(row._Timestamp);
  if (typeof row.EventId !== 'number' || stamp === undefined || Number.isNaN(Date.parse(stamp))) {
    throw new AzureHistoryFormatError(`Row ${String(row.RowKey)} lacks EventId or _Timestamp.`);
  }
  const event: HistoryEventJson = {
    EventType: eventType,
    EventId: row.EventId,
    Timestamp: new Date(stamp).toISOString(),
  };
  for (const field of TEXT_FIELDS) {
    const value = stringOf(row[field]);
    if (value !== undefined && !(field === 'Version' && value === '')) event[field] = value;
  }
  for (const field of NUMBER_FIELDS) {
    if (typeof row[field] === 'number') event[field] = row[field];
  }
  const fireAt = stringOf(row.FireAt);
  if (fireAt !== undefined) event.FireAt = new Date(fireAt).toISOString();
  const status = stringOf(row.OrchestrationStatus);
  if (status !== undefined && STATUSES.has(status)) {
    event.OrchestrationStatus = status as HistoryEventJson['OrchestrationStatus'];
  }
  if (eventType === EventType.SubOrchestrationInstanceCreated) {
    const instanceId = stringOf(row.InstanceId);
    if (instanceId !== undefined) event.InstanceId = instanceId;
  }
  return event;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
