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
import { buildLedger, orderNewEvents, type Ledger } from './replay/ledger';
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

/**
 * One pass: dispatches a committed episode left undispatched, or runs the orchestrator over the
 * inbox's new events and commits and dispatches the episode it decides.
 */
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
  const fresh = await newInboxEvents(ctx, instance, ledger, rows.inbox);
  if (fresh === undefined) return 'idle';

  const now = ctx.clock();
  const pass: Pass = {
    ctx,
    instance,
    past,
    ledger,
    now,
    started: plainEvent(EventType.OrchestratorStarted, now),
    completed: plainEvent(EventType.OrchestratorCompleted, now),
  };
  const decided = await decideNext(pass, fresh);
  const episode = await commitEpisode(pass, (last?.episode ?? 0) + 1, decided);
  await dispatchEpisode(ctx, instance, episode);
  return 'committed';
}

/** What one pass that runs the orchestrator works from: the history so far, its clock reading. */
interface Pass {
  ctx: RuntimeContext;
  instance: InstanceRecord;
  past: HistoryEventJson[];
  ledger: Ledger;
  now: Date;
  /** The OrchestratorStarted and OrchestratorCompleted events that frame the episode. */
  started: HistoryEventJson;
  completed: HistoryEventJson;
}

/** The events an episode adds between its frame, and the custom status it leaves. */
interface Decided {
  events: HistoryEventJson[];
  customStatus: unknown;
}

/**
 * The inbox events no episode consumed yet (the consumed ones are deleted), or `undefined` when
 * there is nothing to run: the execution finished, nothing new, or it has not started yet.
 */
async function newInboxEvents(
  ctx: RuntimeContext,
  instance: InstanceRecord,
  ledger: Ledger,
  inbox: readonly HistoryEventJson[],
): Promise<HistoryEventJson[] | undefined> {
  const fresh: HistoryEventJson[] = [];
  const consumed: string[] = [];
  for (const event of inbox) {
    const key = event.Local?.inboxKey ?? '';
    if (ledger.consumedInboxKeys.has(key)) consumed.push(key);
    else fresh.push(event);
  }
  if (ledger.finished) return undefined;
  if (consumed.length > 0) {
    await ctx.store.deleteInbox(instance.instanceId, instance.executionId, consumed);
  }
  if (fresh.length === 0) return undefined;
  if (!ledger.started && !fresh.some((event) => event.EventType === EventType.ExecutionStarted)) {
    return undefined;
  }
  return fresh;
}

/**
 * What the episode adds to the history: a termination ends the execution without running the
 * orchestrator; otherwise the orchestrator replays over the new events and
 * {@link decideEpisode} turns its outcome into events and the custom status.
 */
async function decideNext(pass: Pass, fresh: HistoryEventJson[]): Promise<Decided> {
  const { ctx, instance, ledger, now } = pass;
  const terminate = fresh.find((event) => event.EventType === EventType.ExecutionTerminated);
  if (terminate) {
    const started = fresh.filter((event) => event.EventType === EventType.ExecutionStarted);
    return { events: [...started, terminate], customStatus: parseJson(instance.customStatus) };
  }
  const newEvents = orderNewEvents(ledger, fresh, now);
  const outcome = await invokeOrchestrator(ctx, instance, pass.past, [pass.started, ...newEvents]);
  const decision = decideEpisode({
    instanceId: instance.instanceId,
    orchestrationName: instance.name,
    ledger,
    newEvents,
    outcome,
    now,
    newExecutionId: ctx.newId,
    known: { activities: ctx.activities, orchestrations: ctx.orchestrations },
    previousCustomStatus: parseJson(instance.customStatus),
  });
  return { events: [...newEvents, ...decision.events], customStatus: decision.customStatus };
}

/**
 * Commits episode `episodeNumber` (inserted, never overwritten). One too big to store is
 * replaced by a small episode that fails the orchestration and says why.
 *
 * @returns the episode as committed.
 * @throws {EpisodeConflictError} when another process committed the episode first.
 */
async function commitEpisode(
  pass: Pass,
  episodeNumber: number,
  decided: Decided,
): Promise<EpisodeRecord> {
  const { ctx, instance, started, completed } = pass;
  const { instanceId, executionId } = instance;
  let episode: EpisodeRecord = {
    episode: episodeNumber,
    events: [started, ...decided.events, completed],
    dispatched: false,
    customStatus: jsonOrUndefined(decided.customStatus),
  };
  const commit = (): Promise<boolean> =>
    ctx.store.commitEpisode(
      instanceId,
      executionId,
      episodeNumber,
      episode.events,
      episode.customStatus,
    );
  let committed: boolean;
  try {
    committed = await commit();
  } catch (error) {
    if (!(error instanceof TextTooLargeError)) throw error;
    const failure = decideEpisode({
      instanceId,
      orchestrationName: instance.name,
      ledger: buildLedger(pass.past),
      newEvents: [],
      outcome: {
        kind: 'failed',
        message: error.message,
        failureDetails: { ErrorType: error.name, ErrorMessage: error.message },
      },
      now: pass.now,
      newExecutionId: ctx.newId,
    });
    episode = {
      ...episode,
      events: [started, ...failure.events, completed],
      customStatus: undefined,
    };
    committed = await commit();
  }
  if (!committed) throw new EpisodeConflictError(instanceId, episodeNumber);
  return episode;
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
