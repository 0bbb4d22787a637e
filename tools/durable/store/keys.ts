/**
 * Every table, queue and key name of the local durable runtime, built and parsed here
 * (docs/durable.md "Storage layout"):
 * - `<hub>InstancesLocal`: one row per instance, PartitionKey = instance id, RowKey = "".
 * - `<hub>HistoryLocal`: PartitionKey = instance id (an episode commits in one entity group
 *   transaction); RowKeys start with the execution id, then `-E-<episode>-<part>` for committed
 *   episodes or `-I-<inbox key>` for events awaiting the next episode.
 * - `<hub>-local-control` queue: wake-ups and timers; `<hub>-local-workitems`: activity work.
 *
 * The names are the local runtime's own, never a real hub's ({@link azureStorageHubResources}):
 * no hub name gives a local name that a deployed hub uses, so the local runtime never reads or
 * deletes a deployed hub's messages.
 */

/** Task hub names as Durable Functions accepts them: 3-45 letters or digits, a letter first. */
const TASK_HUB_PATTERN = /^[A-Za-z][A-Za-z0-9]{2,44}$/;

/** Characters Azure Tables forbid in keys (and that would break the instance URLs). */
// eslint-disable-next-line no-control-regex
const FORBIDDEN_KEY_CHARS = /[/\\#?\u0000-\u001f\u007f-\u009f]/;

/** The longest instance id accepted (Durable's own limit is 256 characters). */
export const MAX_INSTANCE_ID_LENGTH = 256;

const INSTANCES_SUFFIX = 'InstancesLocal';
const HISTORY_SUFFIX = 'HistoryLocal';
const CONTROL_SUFFIX = '-local-control';
const WORK_ITEMS_SUFFIX = '-local-workitems';

/**
 * Checks a task hub name.
 *
 * @throws {Error} naming the rule the hub name breaks.
 */
export function validateTaskHubName(taskHub: string): string {
  if (!TASK_HUB_PATTERN.test(taskHub)) {
    throw new Error(
      `Task hub name "${taskHub}" is invalid: use 3-45 letters or digits, starting with a letter.`,
    );
  }
  return taskHub;
}

/** `<hub>InstancesLocal`. @throws {Error} for an invalid hub name. */
export function instancesTableName(taskHub: string): string {
  return `${validateTaskHubName(taskHub)}${INSTANCES_SUFFIX}`;
}

/** The hub of an `<hub>InstancesLocal` table name, or undefined for any other name. */
export function parseInstancesTableName(tableName: string): string | undefined {
  return parseSuffixed(tableName, INSTANCES_SUFFIX);
}

/** `<hub>HistoryLocal`. @throws {Error} for an invalid hub name. */
export function historyTableName(taskHub: string): string {
  return `${validateTaskHubName(taskHub)}${HISTORY_SUFFIX}`;
}

/** The hub of a `<hub>HistoryLocal` table name, or undefined for any other name. */
export function parseHistoryTableName(tableName: string): string | undefined {
  return parseSuffixed(tableName, HISTORY_SUFFIX);
}

/** `<hub>-local-control`, lowercase (queue names are). @throws {Error} for an invalid hub name. */
export function controlQueueName(taskHub: string): string {
  return `${validateTaskHubName(taskHub).toLowerCase()}${CONTROL_SUFFIX}`;
}

/** The (lowercased) hub of a control queue name, or undefined. */
export function parseControlQueueName(queueName: string): string | undefined {
  const hub = parseSuffixed(queueName, CONTROL_SUFFIX);
  return hub !== undefined && hub === hub.toLowerCase() ? hub : undefined;
}

/** `<hub>-local-workitems`, lowercase. @throws {Error} for an invalid hub name. */
export function workItemQueueName(taskHub: string): string {
  return `${validateTaskHubName(taskHub).toLowerCase()}${WORK_ITEMS_SUFFIX}`;
}

/** The (lowercased) hub of a work-item queue name, or undefined. */
export function parseWorkItemQueueName(queueName: string): string | undefined {
  const hub = parseSuffixed(queueName, WORK_ITEMS_SUFFIX);
  return hub !== undefined && hub === hub.toLowerCase() ? hub : undefined;
}

/** The partition count DurableTask.AzureStorage allows at most (`control-00` … `control-15`). */
const MAX_PARTITIONS = 16;

/** The storage resources a task hub of the real Durable extension (Azure Storage provider) has. */
export interface AzureStorageHubResources {
  tables: string[];
  queues: string[];
  containers: string[];
}

/**
 * The names DurableTask.AzureStorage gives task hub `taskHub`'s resources (Azure/durabletask,
 * src/DurableTask.AzureStorage: `AzureStorageOrchestrationServiceSettings` `InstanceTableName`,
 * `HistoryTableName`, `PartitionTableName`; `AzureStorageOrchestrationService`
 * `GetControlQueueName` = `<hub>-control-{index:00}` for up to 16 partitions,
 * `GetWorkItemQueueName` = `<hub>-workitems`, the `-leases`, `-applease` and `-largemessages`
 * containers; queue and container names lowercased). The local runtime never uses these names;
 * it looks for them to refuse to start beside a real hub.
 *
 * @throws {Error} for an invalid hub name.
 */
export function azureStorageHubResources(taskHub: string): AzureStorageHubResources {
  const hub = validateTaskHubName(taskHub);
  const lower = hub.toLowerCase();
  return {
    tables: [`${hub}Instances`, `${hub}History`, `${hub}Partitions`],
    queues: [
      `${lower}-workitems`,
      ...Array.from(
        { length: MAX_PARTITIONS },
        (_, index) => `${lower}-control-${String(index).padStart(2, '0')}`,
      ),
    ],
    containers: [`${lower}-leases`, `${lower}-applease`, `${lower}-largemessages`],
  };
}

function parseSuffixed(name: string, suffix: string): string | undefined {
  if (!name.endsWith(suffix)) return undefined;
  const hub = name.slice(0, -suffix.length);
  return TASK_HUB_PATTERN.test(hub) ? hub : undefined;
}

/**
 * Checks an orchestration instance id; it becomes a PartitionKey and a URL path segment.
 *
 * @returns the id unchanged.
 * @throws {Error} when the id is empty, too long, starts with `@` (reserved for entities) or
 *   contains `/ \ # ?` or a control character.
 */
export function validateInstanceId(instanceId: string): string {
  if (instanceId.length === 0) throw new Error('The instance id is empty.');
  if (instanceId.length > MAX_INSTANCE_ID_LENGTH) {
    throw new Error(`The instance id is longer than ${MAX_INSTANCE_ID_LENGTH} characters.`);
  }
  if (instanceId.startsWith('@')) {
    throw new Error('Instance ids starting with "@" are reserved for durable entities.');
  }
  if (FORBIDDEN_KEY_CHARS.test(instanceId)) {
    throw new Error('The instance id must not contain "/", "\\", "#", "?" or control characters.');
  }
  return instanceId;
}

/** Execution ids are 32 lowercase hex digits (a GUID without dashes), so `-` can follow them. */
const EXECUTION_ID_PATTERN = /^[0-9a-f]{32}$/;

function checkExecutionId(executionId: string): string {
  if (!EXECUTION_ID_PATTERN.test(executionId)) {
    throw new Error(`Execution id "${executionId}" is not 32 lowercase hex digits.`);
  }
  return executionId;
}

const EPISODE_DIGITS = 10;
const PART_DIGITS = 3;

/** A parsed `<hub>HistoryLocal` RowKey. */
export type HistoryRowKey =
  | { kind: 'episode'; executionId: string; episode: number; part: number }
  | { kind: 'inbox'; executionId: string; inboxKey: string };

/**
 * RowKey of one part of a committed episode: `<executionId>-E-<episode:10>-<part:3>`, so rows
 * sort in commit order.
 *
 * @throws {Error} for a malformed execution id or out-of-range numbers.
 */
export function episodeRowKey(executionId: string, episode: number, part: number): string {
  return `${checkExecutionId(executionId)}-E-${pad(episode, EPISODE_DIGITS)}-${pad(part, PART_DIGITS)}`;
}

/**
 * RowKey of an event waiting for the next episode: `<executionId>-I-<inboxKey>`.
 *
 * @throws {Error} for a malformed execution id or inbox key.
 */
export function inboxRowKey(executionId: string, inboxKey: string): string {
  if (inboxKey.length === 0 || FORBIDDEN_KEY_CHARS.test(inboxKey)) {
    throw new Error(`Inbox key "${inboxKey}" is empty or has forbidden characters.`);
  }
  return `${checkExecutionId(executionId)}-I-${inboxKey}`;
}

/** Reverses {@link episodeRowKey} and {@link inboxRowKey}; undefined for any other RowKey. */
export function parseHistoryRowKey(rowKey: string): HistoryRowKey | undefined {
  const episode = /^([0-9a-f]{32})-E-(\d{10})-(\d{3})$/.exec(rowKey);
  if (episode) {
    return {
      kind: 'episode',
      executionId: episode[1]!,
      episode: Number(episode[2]),
      part: Number(episode[3]),
    };
  }
  const inbox = /^([0-9a-f]{32})-I-(.+)$/.exec(rowKey);
  if (inbox) return { kind: 'inbox', executionId: inbox[1]!, inboxKey: inbox[2]! };
  return undefined;
}

/** The RowKey range `[from, to)` that holds exactly one execution's rows. */
export function executionRowKeyRange(executionId: string): { from: string; to: string } {
  checkExecutionId(executionId);
  // '.' is the character right after '-', so the range ends where the next prefix would begin.
  return { from: `${executionId}-`, to: `${executionId}.` };
}

/** Inbox key of the start of an execution. */
export const START_INBOX_KEY = 'start';
/** Inbox key of a termination request. */
export const TERMINATE_INBOX_KEY = 'terminate';

/** Inbox key of the result (completion or failure) of the task scheduled with `taskScheduledId`. */
export function taskResultInboxKey(taskScheduledId: number): string {
  return `task-${pad(taskScheduledId, 8)}`;
}

/** Inbox key of the firing of timer `timerId`. */
export function timerFiredInboxKey(timerId: number): string {
  return `timer-${pad(timerId, 8)}`;
}

/** Inbox key of one raised external event (`eventId` is unique per raise). */
export function eventRaisedInboxKey(eventId: string): string {
  if (!/^[0-9a-f]{32}$/.test(eventId))
    throw new Error(`Event id "${eventId}" is not 32 hex digits.`);
  return `event-${eventId}`;
}

/** What an inbox key refers to. */
export type InboxKey =
  | { kind: 'start' }
  | { kind: 'terminate' }
  | { kind: 'task'; taskScheduledId: number }
  | { kind: 'timer'; timerId: number }
  | { kind: 'event'; eventId: string };

/** Reverses the inbox key builders; undefined for an unknown key. */
export function parseInboxKey(inboxKey: string): InboxKey | undefined {
  if (inboxKey === START_INBOX_KEY) return { kind: 'start' };
  if (inboxKey === TERMINATE_INBOX_KEY) return { kind: 'terminate' };
  const task = /^task-(\d{8})$/.exec(inboxKey);
  if (task) return { kind: 'task', taskScheduledId: Number(task[1]) };
  const timer = /^timer-(\d{8})$/.exec(inboxKey);
  if (timer) return { kind: 'timer', timerId: Number(timer[1]) };
  const event = /^event-([0-9a-f]{32})$/.exec(inboxKey);
  if (event) return { kind: 'event', eventId: event[1]! };
  return undefined;
}

/** The instance id Durable gives a sub-orchestration started without one: `<parent>:<eventId>`. */
export function subOrchestrationInstanceId(parentInstanceId: string, eventId: number): string {
  return `${parentInstanceId}:${eventId}`;
}

function pad(value: number, digits: number): string {
  if (!Number.isSafeInteger(value) || value < 0 || value >= 10 ** digits) {
    throw new Error(`${value} does not fit in ${digits} digits.`);
  }
  return String(value).padStart(digits, '0');
}

const PAYLOADS_SUFFIX = '-local-payloads';

/**
 * `<hub>-local-payloads`, lowercase: the blob container of texts too large for a table row (the
 * local counterpart of the real hub's `-largemessages`). @throws {Error} for an invalid hub name.
 */
export function payloadContainerName(taskHub: string): string {
  return `${validateTaskHubName(taskHub).toLowerCase()}${PAYLOADS_SUFFIX}`;
}
