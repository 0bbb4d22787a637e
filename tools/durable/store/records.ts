/**
 * What the local durable runtime stores (tools/durable/store/store.ts reads and writes it):
 * instance and episode records, the queue messages, and the codecs between records and table rows.
 */
import type { TableEntity } from '@azure/data-tables';
import type { HistoryEventJson } from '../replay/historyEvents';
import { readTextProperties, textProperties } from './largeText';

/** Orchestration states the runtime stores (ContinuedAsNew is transient: the next one runs). */
export type RuntimeStatus = 'Pending' | 'Running' | 'Completed' | 'Failed' | 'Terminated';

/** The states an instance never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<RuntimeStatus> = new Set([
  'Completed',
  'Failed',
  'Terminated',
]);

/** One row of `<hub>InstancesLocal`. JSON values are kept as JSON text. */
export interface InstanceRecord {
  instanceId: string;
  name: string;
  runtimeStatus: RuntimeStatus;
  executionId: string;
  input?: string;
  output?: string;
  customStatus?: string;
  createdTime: string;
  lastUpdatedTime: string;
  parentInstanceId?: string;
  parentExecutionId?: string;
  parentTaskScheduledId?: number;
}

/** A committed episode. */
export interface EpisodeRecord {
  episode: number;
  events: HistoryEventJson[];
  dispatched: boolean;
  customStatus?: string;
}

/** One execution's stored rows. */
export interface ExecutionRows {
  episodes: EpisodeRecord[];
  /** Inbox events, oldest arrival first, each with `Local.inboxKey` set. */
  inbox: HistoryEventJson[];
}

/** Wakes an orchestration, or fires one of its timers. */
export type ControlMessage =
  | { kind: 'wake'; instanceId: string }
  | { kind: 'timer'; instanceId: string; executionId: string; timerId: number; fireAt: string };

/** Runs one activity. `input` (JSON text) is left out when too large for a message. */
export interface WorkItemMessage {
  instanceId: string;
  executionId: string;
  taskScheduledId: number;
  name: string;
  input?: string;
  inputInHistory?: boolean;
}

/**
 * The value as a {@link ControlMessage}, or undefined when it is not one (something else wrote to
 * the queue: it must not be taken for the runtime's own work).
 */
export function asControlMessage(value: unknown): ControlMessage | undefined {
  if (!isRecord(value) || typeof value.instanceId !== 'string') return undefined;
  if (value.kind === 'wake') return { kind: 'wake', instanceId: value.instanceId };
  if (
    value.kind === 'timer' &&
    typeof value.executionId === 'string' &&
    Number.isSafeInteger(value.timerId) &&
    typeof value.fireAt === 'string'
  ) {
    return {
      kind: 'timer',
      instanceId: value.instanceId,
      executionId: value.executionId,
      timerId: value.timerId as number,
      fireAt: value.fireAt,
    };
  }
  return undefined;
}

/** The value as a {@link WorkItemMessage}, or undefined when it is not one. */
export function asWorkItemMessage(value: unknown): WorkItemMessage | undefined {
  if (
    !isRecord(value) ||
    typeof value.instanceId !== 'string' ||
    typeof value.executionId !== 'string' ||
    !Number.isSafeInteger(value.taskScheduledId) ||
    typeof value.name !== 'string' ||
    (value.input !== undefined && typeof value.input !== 'string') ||
    (value.inputInHistory !== undefined && typeof value.inputInHistory !== 'boolean')
  ) {
    return undefined;
  }
  return {
    instanceId: value.instanceId,
    executionId: value.executionId,
    taskScheduledId: value.taskScheduledId as number,
    name: value.name,
    ...(value.input === undefined ? {} : { input: value.input }),
    ...(value.inputInHistory === undefined ? {} : { inputInHistory: value.inputInHistory }),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A received queue message and what is needed to delete or extend it. */
export interface ReceivedMessage {
  /** The message text (base64 JSON). */
  text: string;
  messageId: string;
  popReceipt: string;
  dequeueCount: number;
}

/**
 * One committed episode from its rows (the event text split over several).
 *
 * @throws {Error} when rows of the episode are missing.
 */
export function toEpisode(
  episode: number,
  rows: Array<{ part: number; entity: Record<string, unknown> }>,
): EpisodeRecord {
  rows.sort((a, b) => a.part - b.part);
  const head = rows[0]!.entity;
  const expected = typeof head.Parts === 'number' ? head.Parts : rows.length;
  if (rows.length !== expected) {
    throw new Error(`Episode ${episode} has ${rows.length} of ${expected} rows.`);
  }
  const text = rows.map((row) => readTextProperties(row.entity, 'Events') ?? '').join('');
  return {
    episode,
    events: JSON.parse(text) as HistoryEventJson[],
    dispatched: head.Dispatched === true,
    customStatus: readTextProperties(head, 'CustomStatus'),
  };
}

const STATUSES: readonly RuntimeStatus[] = [
  'Pending',
  'Running',
  'Completed',
  'Failed',
  'Terminated',
];

/** An `Instances` row as a record (an unknown status reads as `Pending`). */
export function toInstance(entity: Record<string, unknown>): InstanceRecord {
  const status = entity.RuntimeStatus;
  const str = (name: string): string | undefined =>
    typeof entity[name] === 'string' ? (entity[name] as string) : undefined;
  return {
    instanceId: String(entity.partitionKey),
    name: str('Name') ?? '',
    runtimeStatus: STATUSES.includes(status as RuntimeStatus)
      ? (status as RuntimeStatus)
      : 'Pending',
    executionId: str('ExecutionId') ?? '',
    input: readTextProperties(entity, 'Input'),
    output: readTextProperties(entity, 'Output'),
    customStatus: readTextProperties(entity, 'CustomStatus'),
    createdTime: str('CreatedTime') ?? '',
    lastUpdatedTime: str('LastUpdatedTime') ?? '',
    parentInstanceId: str('ParentInstanceId'),
    parentExecutionId: str('ParentExecutionId'),
    parentTaskScheduledId:
      typeof entity.ParentTaskScheduledId === 'number' ? entity.ParentTaskScheduledId : undefined,
  };
}

/** A record as its `Instances` row. */
export function fromInstance(record: InstanceRecord): TableEntity<Record<string, unknown>> {
  return { partitionKey: record.instanceId, rowKey: '', ...instanceProperties(record) };
}

/** The row properties of the fields `record` sets (large texts split over several). */
export function instanceProperties(
  record: Partial<Omit<InstanceRecord, 'instanceId'>>,
): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const plain: Array<[keyof InstanceRecord, string]> = [
    ['name', 'Name'],
    ['runtimeStatus', 'RuntimeStatus'],
    ['executionId', 'ExecutionId'],
    ['createdTime', 'CreatedTime'],
    ['lastUpdatedTime', 'LastUpdatedTime'],
    ['parentInstanceId', 'ParentInstanceId'],
    ['parentExecutionId', 'ParentExecutionId'],
    ['parentTaskScheduledId', 'ParentTaskScheduledId'],
  ];
  for (const [field, property] of plain) {
    const value = (record as Record<string, unknown>)[field];
    if (value !== undefined) properties[property] = value;
  }
  const large: Array<[keyof InstanceRecord, string]> = [
    ['input', 'Input'],
    ['output', 'Output'],
    ['customStatus', 'CustomStatus'],
  ];
  for (const [field, property] of large) {
    if (field in record) {
      Object.assign(
        properties,
        textProperties(property, (record as Record<string, string | undefined>)[field]),
      );
    }
  }
  return properties;
}
