/**
 * All storage access of the local durable runtime: the Instances table, the History table
 * (committed episodes and inbox rows) and the two queues, and the look for a real task hub's
 * resources before the runtime starts. Nothing else touches storage.
 */
import {
  odata,
  type TableClient,
  type TableEntity,
  type TransactionAction,
} from '@azure/data-tables';
import type { QueueClient } from '@azure/storage-queue';
import type { HistoryEventJson } from '../replay/historyEvents';
import {
  toEpisode,
  type ControlMessage,
  type EpisodeRecord,
  type ExecutionRows,
  type InstanceRecord,
  type ReceivedMessage,
  type WorkItemMessage,
} from './records';
import {
  azureStorageHubResources,
  controlQueueName,
  episodeRowKey,
  executionRowKeyRange,
  historyTableName,
  inboxRowKey,
  instancesTableName,
  parseHistoryRowKey,
  payloadContainerName,
  workItemQueueName,
} from './keys';
import {
  inlineBlobText,
  instanceEntityProperties,
  PayloadBlobs,
  readInstanceEntity,
  storedText,
} from './payloadBlobs';
import { readTextProperties, splitText, textProperties, CHARS_PER_PROPERTY } from './largeText';
import { encodeMessage, isConflict, isNotFound, MAX_QUEUE_MESSAGE_BYTES } from './storageWire';
import type { TaskHubStorage } from './storageWire';

/** Longest a queue message can stay invisible (7 days). */
export const MAX_VISIBILITY_SECONDS = 7 * 24 * 3600;

/** Event text per episode row: 12 properties, leaving room for the custom status. */
const EPISODE_CHARS_PER_ROW = CHARS_PER_PROPERTY * 12;
/** Episode rows per commit (one transaction holds at most 4 MiB). */
const MAX_EPISODE_ROWS = 4;

/** All storage access of the local durable runtime (see the file's comment). */
export class DurableStore {
  readonly #clients: TaskHubStorage;
  readonly #taskHub: string;
  readonly instances: TableClient;
  readonly history: TableClient;
  readonly control: QueueClient;
  readonly workItems: QueueClient;
  readonly payloads: PayloadBlobs;
  /** Called after this process enqueued an immediately visible message on a queue. */
  onSent?: (queue: QueueClient) => void;

  constructor(clients: TaskHubStorage, taskHub: string) {
    this.#clients = clients;
    this.#taskHub = taskHub;
    this.instances = clients.table(instancesTableName(taskHub));
    this.history = clients.table(historyTableName(taskHub));
    this.control = clients.queue(controlQueueName(taskHub));
    this.workItems = clients.queue(workItemQueueName(taskHub));
    this.payloads = new PayloadBlobs(clients.container(payloadContainerName(taskHub)));
  }

  /** Creates the tables and queues if they do not exist. */
  async ensureCreated(): Promise<void> {
    await Promise.all([
      this.instances.createTable(),
      this.history.createTable(),
      this.control.createIfNotExists(),
      this.workItems.createIfNotExists(),
      this.payloads.ensureCreated(),
    ]);
  }

  /**
   * The resources of a real Durable extension task hub of the same name that exist in the account
   * (only reads: nothing is created or deleted).
   *
   * @returns their names, empty when there is none.
   * @throws storage errors left after the SDK's retries.
   */
  async findAzureStorageHubResources(): Promise<string[]> {
    const { tables, queues, containers } = azureStorageHubResources(this.#taskHub);
    const checks = [
      ...tables.map(async (name) => ((await tableExists(this.#clients.table(name))) ? name : '')),
      ...queues.map(async (name) => ((await this.#clients.queue(name).exists()) ? name : '')),
      ...containers.map(async (name) =>
        (await this.#clients.container(name).exists()) ? name : '',
      ),
    ];
    return (await Promise.all(checks)).filter((name) => name !== '');
  }

  // ---- Instances -------------------------------------------------------------------------

  /** The instance row, or undefined when there is none. */
  async getInstance(instanceId: string): Promise<InstanceRecord | undefined> {
    try {
      const entity = await this.instances.getEntity<Record<string, unknown>>(instanceId, '');
      return await readInstanceEntity(this.payloads, entity);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Writes the whole row (replacing any earlier one with the same id). */
  async putInstance(record: InstanceRecord): Promise<void> {
    const { instanceId, ...fields } = record;
    const properties = await instanceEntityProperties(this.payloads, instanceId, fields);
    await this.instances.upsertEntity(
      { partitionKey: instanceId, rowKey: '', ...properties },
      'Replace',
    );
  }

  /** Updates the given fields of the row. */
  async patchInstance(
    instanceId: string,
    patch: Partial<Omit<InstanceRecord, 'instanceId'>>,
  ): Promise<void> {
    const entity: TableEntity<Record<string, unknown>> = { partitionKey: instanceId, rowKey: '' };
    Object.assign(entity, await instanceEntityProperties(this.payloads, instanceId, patch));
    await this.instances.updateEntity(entity, 'Merge');
  }

  async deleteInstance(instanceId: string): Promise<void> {
    await ignoreNotFound(this.instances.deleteEntity(instanceId, ''));
  }

  /** One page of instances matching `filter` (an `odata` expression). */
  async listInstances(
    filter: string | undefined,
    pageSize: number,
    continuationToken?: string,
  ): Promise<{ items: InstanceRecord[]; continuationToken?: string }> {
    const pages = this.instances
      .listEntities<Record<string, unknown>>({ queryOptions: { filter } })
      .byPage({ maxPageSize: pageSize, continuationToken });
    const page = await pages.next();
    if (page.done) return { items: [] };
    return {
      items: await Promise.all(
        page.value.map((entity) => readInstanceEntity(this.payloads, entity)),
      ),
      continuationToken: (page.value as { continuationToken?: string }).continuationToken,
    };
  }

  // ---- History ---------------------------------------------------------------------------

  /** The committed episodes and inbox events of one execution. */
  async loadExecution(instanceId: string, executionId: string): Promise<ExecutionRows> {
    const { from, to } = executionRowKeyRange(executionId);
    const filter = odata`PartitionKey eq ${instanceId} and RowKey ge ${from} and RowKey lt ${to}`;
    const parts = new Map<number, Array<{ part: number; entity: Record<string, unknown> }>>();
    const inbox: Array<{ arrivedAt: string; rowKey: string; event: HistoryEventJson }> = [];
    for await (const entity of this.history.listEntities<Record<string, unknown>>({
      queryOptions: { filter },
    })) {
      const rowKey = entity.rowKey ?? '';
      const key = parseHistoryRowKey(rowKey);
      if (!key) continue;
      await inlineBlobText(this.payloads, entity, key.kind === 'episode' ? 'Events' : 'Event');
      if (key.kind === 'episode') {
        const list = parts.get(key.episode) ?? [];
        list.push({ part: key.part, entity });
        parts.set(key.episode, list);
      } else {
        const text = readTextProperties(entity, 'Event');
        if (text === undefined) continue;
        const event = JSON.parse(text) as HistoryEventJson;
        event.Local = { ...event.Local, inboxKey: key.inboxKey };
        inbox.push({ arrivedAt: String(entity.ArrivedAt ?? ''), rowKey, event });
      }
    }
    const episodes: EpisodeRecord[] = [...parts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([episode, rows]) => toEpisode(episode, rows));
    inbox.sort(
      (a, b) => a.arrivedAt.localeCompare(b.arrivedAt) || a.rowKey.localeCompare(b.rowKey),
    );
    return { episodes, inbox: inbox.map((entry) => entry.event) };
  }

  /**
   * Commits an episode atomically (one entity group transaction).
   *
   * @returns false when the episode number is taken (another worker committed it first).
   */
  async commitEpisode(
    instanceId: string,
    executionId: string,
    episode: number,
    events: readonly HistoryEventJson[],
    customStatus: string | undefined,
  ): Promise<boolean> {
    const text = JSON.stringify(events);
    let rowsText = splitText(text, EPISODE_CHARS_PER_ROW);
    let inBlob: Record<string, string | number> = {};
    if (rowsText.length > MAX_EPISODE_ROWS) {
      // Too large for the rows of one transaction: the events go to a blob the row names.
      const prefix = `${instanceId}/${executionId}/episode-${episode}`;
      inBlob = { Events_Parts: 0, Events_Blob: await this.payloads.put(prefix, text) };
      rowsText = [''];
    }
    const actions: TransactionAction[] = rowsText.map((rowText, part) => [
      'create',
      {
        partitionKey: instanceId,
        rowKey: episodeRowKey(executionId, episode, part),
        ...textProperties('Events', rowText),
        ...inBlob,
        ...(part === 0
          ? {
              Parts: rowsText.length,
              Dispatched: false,
              ...textProperties('CustomStatus', customStatus),
            }
          : {}),
      },
    ]);
    try {
      await this.history.submitTransaction(actions);
      return true;
    } catch (error) {
      if (isConflict(error)) return false;
      throw error;
    }
  }

  /** Records that an episode's work has all been sent. */
  async markDispatched(instanceId: string, executionId: string, episode: number): Promise<void> {
    await this.history.updateEntity(
      {
        partitionKey: instanceId,
        rowKey: episodeRowKey(executionId, episode, 0),
        Dispatched: true,
      },
      'Merge',
    );
  }

  /** Stores an arriving event for the execution's next episode (idempotent per inbox key). */
  async putInbox(
    instanceId: string,
    executionId: string,
    inboxKey: string,
    event: HistoryEventJson,
    arrivedAt: Date,
  ): Promise<void> {
    const { Local: _local, ...stored } = event;
    await this.history.upsertEntity(
      {
        partitionKey: instanceId,
        rowKey: inboxRowKey(executionId, inboxKey),
        ArrivedAt: arrivedAt.toISOString(),
        ...(await storedText(
          this.payloads,
          'Event',
          JSON.stringify(stored),
          `${instanceId}/${executionId}/inbox`,
        )),
      },
      'Replace',
    );
  }

  /** Removes consumed inbox rows (missing ones are fine). */
  async deleteInbox(
    instanceId: string,
    executionId: string,
    inboxKeys: Iterable<string>,
  ): Promise<void> {
    await Promise.all(
      [...inboxKeys].map((key) =>
        ignoreNotFound(this.history.deleteEntity(instanceId, inboxRowKey(executionId, key))),
      ),
    );
  }

  /** Deletes every history row of the instance (all executions). @returns the rows deleted. */
  async deleteHistory(instanceId: string): Promise<number> {
    const rowKeys: string[] = [];
    for await (const entity of this.history.listEntities({
      queryOptions: { filter: odata`PartitionKey eq ${instanceId}`, select: ['RowKey'] },
    })) {
      rowKeys.push(entity.rowKey!);
    }
    await Promise.all(
      rowKeys.map((rowKey) => ignoreNotFound(this.history.deleteEntity(instanceId, rowKey))),
    );
    await this.payloads.deleteUnder(instanceId);
    return rowKeys.length;
  }

  // ---- Queues ----------------------------------------------------------------------------

  /** Sends a control message, invisible for `delaySeconds` (at most 7 days). */
  async sendControl(message: ControlMessage, delaySeconds = 0): Promise<void> {
    const visibilityTimeout = clampDelay(delaySeconds);
    await this.control.sendMessage(encodeMessage(message), {
      visibilityTimeout,
      messageTimeToLive: -1,
    });
    if (visibilityTimeout === 0) this.onSent?.(this.control);
  }

  /** Sends an activity work item; an input too large for a message stays in the history. */
  async sendWorkItem(message: WorkItemMessage): Promise<void> {
    let text = encodeMessage(message);
    if (Buffer.byteLength(text) > MAX_QUEUE_MESSAGE_BYTES) {
      text = encodeMessage({ ...message, input: undefined, inputInHistory: true });
    }
    await this.workItems.sendMessage(text, { messageTimeToLive: -1 });
    this.onSent?.(this.workItems);
  }

  /** Receives up to `count` messages (raw text), hidden from others for `visibilitySeconds`. */
  async receive(
    queue: QueueClient,
    count: number,
    visibilitySeconds: number,
  ): Promise<ReceivedMessage[]> {
    const response = await queue.receiveMessages({
      numberOfMessages: Math.max(1, Math.min(32, count)),
      visibilityTimeout: visibilitySeconds,
    });
    return response.receivedMessageItems.map((item) => ({
      text: item.messageText,
      messageId: item.messageId,
      popReceipt: item.popReceipt,
      dequeueCount: item.dequeueCount,
    }));
  }

  /** Deletes a processed message (already gone is fine). */
  async deleteMessage(queue: QueueClient, message: ReceivedMessage): Promise<void> {
    await ignoreNotFound(queue.deleteMessage(message.messageId, message.popReceipt));
  }

  /** Keeps a message hidden for `seconds` more; updates its pop receipt. */
  async extendMessage(
    queue: QueueClient,
    message: ReceivedMessage,
    seconds: number,
  ): Promise<void> {
    const response = await queue.updateMessage(
      message.messageId,
      message.popReceipt,
      undefined,
      clampDelay(seconds),
    );
    if (response.popReceipt) message.popReceipt = response.popReceipt;
  }
}

/** True when the table exists; a read, because table names resolve case-insensitively. */
async function tableExists(table: TableClient): Promise<boolean> {
  try {
    await table
      .listEntities({ queryOptions: { select: ['PartitionKey'] } })
      .byPage({ maxPageSize: 1 })
      .next();
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

function clampDelay(seconds: number): number {
  return Math.max(0, Math.min(MAX_VISIBILITY_SECONDS - 60, Math.ceil(seconds)));
}

async function ignoreNotFound(operation: Promise<unknown>): Promise<void> {
  try {
    await operation;
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}
