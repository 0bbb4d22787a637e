"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DurableStore = exports.MAX_VISIBILITY_SECONDS = exports.TERMINAL_STATUSES = void 0;
/**
 * All storage access of the local durable runtime: the Instances table, the History table
 * (committed episodes and inbox rows) and the two queues. Nothing else touches storage.
 */
const data_tables_1 = require("@azure/data-tables");
const errors_1 = require("../../src/storage/errors");
const queue_1 = require("../../src/storage/queue");
const keys_1 = require("./keys");
const largeText_1 = require("./largeText");
exports.TERMINAL_STATUSES = new Set([
    'Completed',
    'Failed',
    'Terminated',
]);
/** Longest a queue message can stay invisible (7 days). */
exports.MAX_VISIBILITY_SECONDS = 7 * 24 * 3600;
/** Event text per episode row: 12 properties, leaving room for the custom status. */
const EPISODE_CHARS_PER_ROW = largeText_1.CHARS_PER_PROPERTY * 12;
/** Episode rows per commit (one transaction holds at most 4 MiB). */
const MAX_EPISODE_ROWS = 4;
class DurableStore {
    instances;
    history;
    control;
    workItems;
    /** Called after this process enqueued an immediately visible message on a queue. */
    onSent;
    constructor(clients, taskHub) {
        this.instances = clients.table((0, keys_1.instancesTableName)(taskHub));
        this.history = clients.table((0, keys_1.historyTableName)(taskHub));
        this.control = clients.queue((0, keys_1.controlQueueName)(taskHub));
        this.workItems = clients.queue((0, keys_1.workItemQueueName)(taskHub));
    }
    /** Creates the tables and queues if they do not exist. */
    async ensureCreated() {
        await Promise.all([
            this.instances.createTable(),
            this.history.createTable(),
            this.control.createIfNotExists(),
            this.workItems.createIfNotExists(),
        ]);
    }
    // ---- Instances -------------------------------------------------------------------------
    /** The instance row, or undefined when there is none. */
    async getInstance(instanceId) {
        try {
            return toInstance(await this.instances.getEntity(instanceId, ''));
        }
        catch (error) {
            if ((0, errors_1.isNotFound)(error))
                return undefined;
            throw error;
        }
    }
    /** Writes the whole row (replacing any earlier one with the same id). */
    async putInstance(record) {
        await this.instances.upsertEntity(fromInstance(record), 'Replace');
    }
    /** Updates the given fields of the row. */
    async patchInstance(instanceId, patch) {
        const entity = { partitionKey: instanceId, rowKey: '' };
        Object.assign(entity, instanceProperties(patch));
        await this.instances.updateEntity(entity, 'Merge');
    }
    async deleteInstance(instanceId) {
        await ignoreNotFound(this.instances.deleteEntity(instanceId, ''));
    }
    /** One page of instances matching `filter` (an `odata` expression). */
    async listInstances(filter, pageSize, continuationToken) {
        const pages = this.instances
            .listEntities({ queryOptions: { filter } })
            .byPage({ maxPageSize: pageSize, continuationToken });
        const page = await pages.next();
        if (page.done)
            return { items: [] };
        return {
            items: page.value.map(toInstance),
            continuationToken: page.value.continuationToken,
        };
    }
    // ---- History ---------------------------------------------------------------------------
    /** The committed episodes and inbox events of one execution. */
    async loadExecution(instanceId, executionId) {
        const { from, to } = (0, keys_1.executionRowKeyRange)(executionId);
        const filter = (0, data_tables_1.odata) `PartitionKey eq ${instanceId} and RowKey ge ${from} and RowKey lt ${to}`;
        const parts = new Map();
        const inbox = [];
        for await (const entity of this.history.listEntities({
            queryOptions: { filter },
        })) {
            const rowKey = entity.rowKey ?? '';
            const key = (0, keys_1.parseHistoryRowKey)(rowKey);
            if (!key)
                continue;
            if (key.kind === 'episode') {
                const list = parts.get(key.episode) ?? [];
                list.push({ part: key.part, entity });
                parts.set(key.episode, list);
            }
            else {
                const text = (0, largeText_1.readTextProperties)(entity, 'Event');
                if (text === undefined)
                    continue;
                const event = JSON.parse(text);
                event.Local = { ...event.Local, inboxKey: key.inboxKey };
                inbox.push({ arrivedAt: String(entity.ArrivedAt ?? ''), rowKey, event });
            }
        }
        const episodes = [...parts.entries()]
            .sort(([a], [b]) => a - b)
            .map(([episode, rows]) => toEpisode(episode, rows));
        inbox.sort((a, b) => a.arrivedAt.localeCompare(b.arrivedAt) || a.rowKey.localeCompare(b.rowKey));
        return { episodes, inbox: inbox.map((entry) => entry.event) };
    }
    /**
     * Commits an episode atomically (one entity group transaction).
     *
     * @returns false when the episode number is taken (another worker committed it first).
     * @throws {TextTooLargeError} when the episode does not fit in {@link MAX_EPISODE_ROWS} rows.
     */
    async commitEpisode(instanceId, executionId, episode, events, customStatus) {
        const text = JSON.stringify(events);
        const rowsText = (0, largeText_1.splitText)(text, EPISODE_CHARS_PER_ROW);
        if (rowsText.length > MAX_EPISODE_ROWS)
            throw new largeText_1.TextTooLargeError('The episode history', text.length);
        const actions = rowsText.map((rowText, part) => [
            'create',
            {
                partitionKey: instanceId,
                rowKey: (0, keys_1.episodeRowKey)(executionId, episode, part),
                ...(0, largeText_1.textProperties)('Events', rowText),
                ...(part === 0
                    ? {
                        Parts: rowsText.length,
                        Dispatched: false,
                        ...(0, largeText_1.textProperties)('CustomStatus', customStatus),
                    }
                    : {}),
            },
        ]);
        try {
            await this.history.submitTransaction(actions);
            return true;
        }
        catch (error) {
            if ((0, errors_1.isAlreadyExists)(error))
                return false;
            throw error;
        }
    }
    /** Records that an episode's work has all been sent. */
    async markDispatched(instanceId, executionId, episode) {
        await this.history.updateEntity({
            partitionKey: instanceId,
            rowKey: (0, keys_1.episodeRowKey)(executionId, episode, 0),
            Dispatched: true,
        }, 'Merge');
    }
    /** Stores an arriving event for the execution's next episode (idempotent per inbox key). */
    async putInbox(instanceId, executionId, inboxKey, event, arrivedAt) {
        const { Local: _local, ...stored } = event;
        await this.history.upsertEntity({
            partitionKey: instanceId,
            rowKey: (0, keys_1.inboxRowKey)(executionId, inboxKey),
            ArrivedAt: arrivedAt.toISOString(),
            ...(0, largeText_1.textProperties)('Event', JSON.stringify(stored)),
        }, 'Replace');
    }
    /** Removes consumed inbox rows (missing ones are fine). */
    async deleteInbox(instanceId, executionId, inboxKeys) {
        await Promise.all([...inboxKeys].map((key) => ignoreNotFound(this.history.deleteEntity(instanceId, (0, keys_1.inboxRowKey)(executionId, key)))));
    }
    /** Deletes every history row of the instance (all executions). @returns the rows deleted. */
    async deleteHistory(instanceId) {
        const rowKeys = [];
        for await (const entity of this.history.listEntities({
            queryOptions: { filter: (0, data_tables_1.odata) `PartitionKey eq ${instanceId}`, select: ['RowKey'] },
        })) {
            rowKeys.push(entity.rowKey);
        }
        await Promise.all(rowKeys.map((rowKey) => ignoreNotFound(this.history.deleteEntity(instanceId, rowKey))));
        return rowKeys.length;
    }
    // ---- Queues ----------------------------------------------------------------------------
    /** Sends a control message, invisible for `delaySeconds` (at most 7 days). */
    async sendControl(message, delaySeconds = 0) {
        const visibilityTimeout = clampDelay(delaySeconds);
        await this.control.sendMessage((0, queue_1.encodeQueueMessage)(message), {
            visibilityTimeout,
            messageTimeToLive: -1,
        });
        if (visibilityTimeout === 0)
            this.onSent?.(this.control);
    }
    /** Sends an activity work item; an input too large for a message stays in the history. */
    async sendWorkItem(message) {
        let text = (0, queue_1.encodeQueueMessage)(message);
        if (Buffer.byteLength(text) > queue_1.MAX_QUEUE_MESSAGE_BYTES) {
            text = (0, queue_1.encodeQueueMessage)({ ...message, input: undefined, inputInHistory: true });
        }
        await this.workItems.sendMessage(text, { messageTimeToLive: -1 });
        this.onSent?.(this.workItems);
    }
    /** Receives up to `count` messages (raw text), hidden from other receivers for `visibilitySeconds`. */
    async receive(queue, count, visibilitySeconds) {
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
    async deleteMessage(queue, message) {
        await ignoreNotFound(queue.deleteMessage(message.messageId, message.popReceipt));
    }
    /** Keeps a message hidden for `seconds` more; updates its pop receipt. */
    async extendMessage(queue, message, seconds) {
        const response = await queue.updateMessage(message.messageId, message.popReceipt, undefined, clampDelay(seconds));
        if (response.popReceipt)
            message.popReceipt = response.popReceipt;
    }
}
exports.DurableStore = DurableStore;
function clampDelay(seconds) {
    return Math.max(0, Math.min(exports.MAX_VISIBILITY_SECONDS - 60, Math.ceil(seconds)));
}
async function ignoreNotFound(operation) {
    try {
        await operation;
    }
    catch (error) {
        if (!(0, errors_1.isNotFound)(error))
            throw error;
    }
}
function toEpisode(episode, rows) {
    rows.sort((a, b) => a.part - b.part);
    const head = rows[0].entity;
    const expected = typeof head.Parts === 'number' ? head.Parts : rows.length;
    if (rows.length !== expected) {
        throw new Error(`Episode ${episode} has ${rows.length} of ${expected} rows.`);
    }
    const text = rows.map((row) => (0, largeText_1.readTextProperties)(row.entity, 'Events') ?? '').join('');
    return {
        episode,
        events: JSON.parse(text),
        dispatched: head.Dispatched === true,
        customStatus: (0, largeText_1.readTextProperties)(head, 'CustomStatus'),
    };
}
const STATUSES = [
    'Pending',
    'Running',
    'Completed',
    'Failed',
    'Terminated',
];
function toInstance(entity) {
    const status = entity.RuntimeStatus;
    const str = (name) => typeof entity[name] === 'string' ? entity[name] : undefined;
    return {
        instanceId: String(entity.partitionKey),
        name: str('Name') ?? '',
        runtimeStatus: STATUSES.includes(status)
            ? status
            : 'Pending',
        executionId: str('ExecutionId') ?? '',
        input: (0, largeText_1.readTextProperties)(entity, 'Input'),
        output: (0, largeText_1.readTextProperties)(entity, 'Output'),
        customStatus: (0, largeText_1.readTextProperties)(entity, 'CustomStatus'),
        createdTime: str('CreatedTime') ?? '',
        lastUpdatedTime: str('LastUpdatedTime') ?? '',
        parentInstanceId: str('ParentInstanceId'),
        parentExecutionId: str('ParentExecutionId'),
        parentTaskScheduledId: typeof entity.ParentTaskScheduledId === 'number' ? entity.ParentTaskScheduledId : undefined,
    };
}
function fromInstance(record) {
    return { partitionKey: record.instanceId, rowKey: '', ...instanceProperties(record) };
}
function instanceProperties(record) {
    const properties = {};
    const plain = [
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
        const value = record[field];
        if (value !== undefined)
            properties[property] = value;
    }
    const large = [
        ['input', 'Input'],
        ['output', 'Output'],
        ['customStatus', 'CustomStatus'],
    ];
    for (const [field, property] of large) {
        if (field in record) {
            Object.assign(properties, (0, largeText_1.textProperties)(property, record[field]));
        }
    }
    return properties;
}
//# sourceMappingURL=store.js.map