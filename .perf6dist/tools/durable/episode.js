"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EpisodeConflictError = void 0;
exports.advanceOrchestration = advanceOrchestration;
const decide_1 = require("./decide");
const dispatch_1 = require("./dispatch");
const historyEvents_1 = require("./historyEvents");
const ledger_1 = require("./ledger");
const largeText_1 = require("./largeText");
const orchestratorInput_1 = require("./orchestratorInput");
const store_1 = require("./store");
/** Another worker committed the same episode first; the wake-up will be retried. */
class EpisodeConflictError extends Error {
    constructor(instanceId, episode) {
        super(`Episode ${episode} of instance '${instanceId}' was committed by another worker.`);
        this.name = 'EpisodeConflictError';
    }
}
exports.EpisodeConflictError = EpisodeConflictError;
/** At most this many passes per wake-up (each pass dispatches or commits one episode). */
const MAX_PASSES = 4;
/**
 * Brings an instance up to date with its inbox. Call it with the instance's lock held.
 *
 * @throws {EpisodeConflictError} when another process committed the episode first.
 * @throws storage errors left after the SDK's retries (the wake-up message is then retried).
 */
async function advanceOrchestration(ctx, instanceId) {
    for (let pass = 0; pass < MAX_PASSES; pass += 1) {
        const result = await runPass(ctx, instanceId);
        if (result !== 'dispatchedLeftover')
            return;
    }
}
async function runPass(ctx, instanceId) {
    const instance = await ctx.store.getInstance(instanceId);
    if (!instance || !instance.executionId)
        return 'idle';
    // Dispatch writes an ended status only after the work and the parent's notification are
    // sent, so an ended instance has nothing left to send. Late inbox rows (results that arrived
    // after the end) stay until the instance is purged.
    if (store_1.TERMINAL_STATUSES.has(instance.runtimeStatus))
        return 'idle';
    const rows = await ctx.store.loadExecution(instanceId, instance.executionId);
    const last = rows.episodes.at(-1);
    if (last && !last.dispatched) {
        await (0, dispatch_1.dispatchEpisode)(ctx, instance, last);
        return 'dispatchedLeftover';
    }
    const past = rows.episodes.flatMap((episode) => episode.events);
    const ledger = (0, ledger_1.buildLedger)(past);
    const fresh = [];
    const consumed = [];
    for (const event of rows.inbox) {
        const key = event.Local?.inboxKey ?? '';
        if (ledger.consumedInboxKeys.has(key))
            consumed.push(key);
        else
            fresh.push(event);
    }
    if (ledger.finished)
        return 'idle';
    if (consumed.length > 0)
        await ctx.store.deleteInbox(instanceId, instance.executionId, consumed);
    if (fresh.length === 0)
        return 'idle';
    if (!ledger.started && !fresh.some((event) => event.EventType === historyEvents_1.EventType.ExecutionStarted)) {
        return 'idle';
    }
    const now = ctx.clock();
    const orchestratorStarted = (0, historyEvents_1.plainEvent)(historyEvents_1.EventType.OrchestratorStarted, now);
    const terminate = fresh.find((event) => event.EventType === historyEvents_1.EventType.ExecutionTerminated);
    let newEvents;
    let appended;
    let customStatusValue;
    if (terminate) {
        newEvents = [
            ...fresh.filter((event) => event.EventType === historyEvents_1.EventType.ExecutionStarted),
            terminate,
        ];
        appended = [];
        customStatusValue = parseJson(instance.customStatus);
    }
    else {
        newEvents = (0, ledger_1.orderNewEvents)(ledger, fresh);
        const outcome = await invokeOrchestrator(ctx, instance, past, [
            orchestratorStarted,
            ...newEvents,
        ]);
        const decision = (0, decide_1.decideEpisode)({
            instanceId,
            orchestrationName: instance.name,
            ledger,
            newEvents,
            outcome,
            now,
            newExecutionId: ctx.newId,
        });
        appended = decision.events;
        customStatusValue = decision.customStatus;
    }
    const episodeNumber = (last?.episode ?? 0) + 1;
    const orchestratorCompleted = (0, historyEvents_1.plainEvent)(historyEvents_1.EventType.OrchestratorCompleted, now);
    let events = [orchestratorStarted, ...newEvents, ...appended, orchestratorCompleted];
    let customStatus = jsonOrUndefined(customStatusValue);
    const commit = () => ctx.store.commitEpisode(instanceId, instance.executionId, episodeNumber, events, customStatus);
    let committed;
    try {
        committed = await commit();
    }
    catch (error) {
        if (!(error instanceof largeText_1.TextTooLargeError))
            throw error;
        // Too big to store: fail the orchestration with a small episode that says why.
        const failure = (0, decide_1.decideEpisode)({
            instanceId,
            orchestrationName: instance.name,
            ledger: (0, ledger_1.buildLedger)(past),
            newEvents: [],
            outcome: {
                kind: 'failed',
                message: error.message,
                failureDetails: { ErrorType: error.name, ErrorMessage: error.message },
            },
            now,
            newExecutionId: ctx.newId,
        });
        events = [orchestratorStarted, ...failure.events, orchestratorCompleted];
        customStatus = undefined;
        committed = await commit();
    }
    if (!committed)
        throw new EpisodeConflictError(instanceId, episodeNumber);
    const episode = {
        episode: episodeNumber,
        events,
        dispatched: false,
        customStatus,
    };
    await (0, dispatch_1.dispatchEpisode)(ctx, instance, episode);
    return 'committed';
}
async function invokeOrchestrator(ctx, instance, pastEvents, newEvents) {
    if (!ctx.orchestrations.has(instance.name)) {
        const message = `The function '${instance.name}' doesn't exist, is disabled, or is not an orchestrator function.`;
        return {
            kind: 'failed',
            message,
            failureDetails: { ErrorType: 'Error', ErrorMessage: message },
        };
    }
    const triggerValue = (0, orchestratorInput_1.buildOrchestratorInput)({
        instanceId: instance.instanceId,
        pastEvents,
        newEvents,
        input: parseJson(instance.input),
        parentInstanceId: instance.parentInstanceId,
    });
    try {
        return (0, orchestratorInput_1.outcomeFromReturn)(await ctx.invoke(instance.name, triggerValue, 'orchestrationTrigger'));
    }
    catch (error) {
        return (0, orchestratorInput_1.outcomeFromError)(error);
    }
}
function parseJson(text) {
    return text === undefined ? undefined : JSON.parse(text);
}
function jsonOrUndefined(value) {
    return value === undefined || value === null ? undefined : JSON.stringify(value);
}
//# sourceMappingURL=episode.js.map