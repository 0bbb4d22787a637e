/**
 * Runs an orchestration forward by one episode, the way the Durable Task Framework does:
 * load the history and the inbox, hand the orchestrator the history plus the new events, decide
 * what to schedule, commit the episode atomically, then dispatch its work.
 *
 * The commit is the point of no return: an episode is one entity group transaction in the
 * instance's history partition, inserted (never overwritten), so a crash before it leaves the
 * inbox untouched (the episode simply runs again) and a crash after it leaves an undispatched
 * episode that the next pass dispatches before anything else.
 */
import type { RuntimeContext } from './context';
import { decideEpisode } from './replay/decide';
import { dispatchEpisode } from './dispatch';
import { EventType, plainEvent, type HistoryEventJson } from './replay/historyEvents';
import { buildLedger, orderNewEvents } from './replay/ledger';
import { TextTooLargeError } from './store/largeText';
import {
  buildOrchestratorInput,
  outcomeFromError,
  outcomeFromReturn,
  type OrchestratorOutcome,
} from './replay/orchestratorInput';
import { TERMINAL_STATUSES, type EpisodeRecord, type InstanceRecord } from './store/records';

/** Another worker committed the same episode first; the wake-up will be retried. */
export class EpisodeConflictError extends Error {
  constructor(instanceId: string, episode: number) {
    super(`Episode ${episode} of instance '${instanceId}' was committed by another worker.`);
    this.name = 'EpisodeConflictError';
  }
}

/** At most this many passes per wake-up (each pass dispatches or commits one episode). */
const MAX_PASSES = 4;

/**
 * Brings an instance up to date with its inbox. Call it with the instance's lock held.
 *
 * @throws {EpisodeConflictError} when another process committed the episode first.
 * @throws storage errors left after the SDK's retries (the wake-up message is then retried).
 */
export async function advanceOrchestration(ctx: RuntimeContext, instanceId: string): Promise<void> {
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const result = await runPass(ctx, instanceId);
    if (result !== 'dispatchedLeftover') return;
  }
}

async function runPass(
  ctx: RuntimeContext,
  instanceId: string,
): Promise<'idle' | 'dispatchedLeftover' | 'committed'> {
  const instance = await ctx.store.getInstance(instanceId);
  if (!instance || !instance.executionId) return 'idle';
  // Dispatch writes an ended status only after the work and the parent's notification are
  // sent, so an ended instance has nothing left to send. Late inbox rows (results that arrived
  // after the end) stay until the instance is purged.
  if (TERMINAL_STATUSES.has(instance.runtimeStatus)) return 'idle';
  const rows = await ctx.store.loadExecution(instanceId, instance.executionId);
  const last = rows.episodes.at(-1);
  if (last && !last.dispatched) {
    await dispatchEpisode(ctx, instance, last);
    return 'dispatchedLeftover';
  }

  const past = rows.episodes.flatMap((episode) => episode.events);
  const ledger = buildLedger(past);
  const fresh: HistoryEventJson[] = [];
  const consumed: string[] = [];
  for (const event of rows.inbox) {
    const key = event.Local?.inboxKey ?? '';
    if (ledger.consumedInboxKeys.has(key)) consumed.push(key);
    else fresh.push(event);
  }
  if (ledger.finished) return 'idle';
  if (consumed.length > 0) await ctx.store.deleteInbox(instanceId, instance.executionId, consumed);
  if (fresh.length === 0) return 'idle';
  if (!ledger.started && !fresh.some((event) => event.EventType === EventType.ExecutionStarted)) {
    return 'idle';
  }

  const now = ctx.clock();
  const orchestratorStarted = plainEvent(EventType.OrchestratorStarted, now);
  const terminate = fresh.find((event) => event.EventType === EventType.ExecutionTerminated);
  let newEvents: HistoryEventJson[];
  let appended: HistoryEventJson[];
  let customStatusValue: unknown;
  if (terminate) {
    newEvents = [
      ...fresh.filter((event) => event.EventType === EventType.ExecutionStarted),
      terminate,
    ];
    appended = [];
    customStatusValue = parseJson(instance.customStatus);
  } else {
    newEvents = orderNewEvents(ledger, fresh, now);
    const outcome = await invokeOrchestrator(ctx, instance, past, [
      orchestratorStarted,
      ...newEvents,
    ]);
    const decision = decideEpisode({
      instanceId,
      orchestrationName: instance.name,
      ledger,
      newEvents,
      outcome,
      now,
      newExecutionId: ctx.newId,
      known: { activities: ctx.activities, orchestrations: ctx.orchestrations },
      previousCustomStatus: parseJson(instance.customStatus),
    });
    appended = decision.events;
    customStatusValue = decision.customStatus;
  }

  const episodeNumber = (last?.episode ?? 0) + 1;
  const orchestratorCompleted = plainEvent(EventType.OrchestratorCompleted, now);
  let events = [orchestratorStarted, ...newEvents, ...appended, orchestratorCompleted];
  let customStatus = jsonOrUndefined(customStatusValue);
  const commit = (): Promise<boolean> =>
    ctx.store.commitEpisode(instanceId, instance.executionId, episodeNumber, events, customStatus);
  let committed: boolean;
  try {
    committed = await commit();
  } catch (error) {
    if (!(error instanceof TextTooLargeError)) throw error;
    // Too big to store: fail the orchestration with a small episode that says why.
    const failure = decideEpisode({
      instanceId,
      orchestrationName: instance.name,
      ledger: buildLedger(past),
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
  if (!committed) throw new EpisodeConflictError(instanceId, episodeNumber);

  const episode: EpisodeRecord = {
    episode: episodeNumber,
    events,
    dispatched: false,
    customStatus,
  };
  await dispatchEpisode(ctx, instance, episode);
  return 'committed';
}

async function invokeOrchestrator(
  ctx: RuntimeContext,
  instance: InstanceRecord,
  pastEvents: readonly HistoryEventJson[],
  newEvents: readonly HistoryEventJson[],
): Promise<OrchestratorOutcome> {
  if (!ctx.orchestrations.has(instance.name)) {
    const message = `The function '${instance.name}' doesn't exist, is disabled, or is not an orchestrator function.`;
    return {
      kind: 'failed',
      message,
      failureDetails: { ErrorType: 'Error', ErrorMessage: message },
    };
  }
  const triggerValue = buildOrchestratorInput({
    instanceId: instance.instanceId,
    pastEvents,
    newEvents,
    input: parseJson(instance.input),
    parentInstanceId: instance.parentInstanceId,
  });
  try {
    return outcomeFromReturn(await ctx.invoke(instance.name, triggerValue, 'orchestrationTrigger'));
  } catch (error) {
    return outcomeFromError(error);
  }
}

function parseJson(text: string | undefined): unknown {
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

function jsonOrUndefined(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : JSON.stringify(value);
}
