/**
 * The rules the Durable Functions extension (Azure/azure-functions-durable-extension, v2.x) and
 * DurableTask.Core apply to what a JavaScript orchestrator yields, which `durable-functions` alone
 * does not: when a yielded task counts as done for the extension, the 16 KB custom status, unknown
 * functions, and a history that the replay no longer asks for. Pure.
 */
import type { ActionNode, OrchestratorAction } from './actions';
import type { Ledger, ScheduledTask } from './ledger';

/**
 * Whether the extension's await of `node` has finished. `OutOfProcOrchestrationShim`
 * (`ProcessAsyncActionsV2`) turns every top-level action into a .NET task and awaits them one by
 * one before it looks at `isDone` or `error`: `Task.all` becomes `Task.WhenAll` (done when every
 * child is, failed or not), `Task.any` `Task.WhenAny`, a cancelled timer is done at once.
 *
 * @param leafTask - for one action: its scheduled task (none when not scheduled yet) or, for a
 *   wait for an event, its rank among the waits of that event name.
 */
export function nodeDone(
  node: ActionNode,
  ledger: Ledger,
  leafTask: (action: OrchestratorAction) => { task?: ScheduledTask; eventOrdinal?: number },
): boolean {
  if (node.kind !== 'leaf') {
    const done = (child: ActionNode): boolean => nodeDone(child, ledger, leafTask);
    return node.kind === 'all' ? node.children.every(done) : node.children.some(done);
  }
  const { action } = node;
  const { task, eventOrdinal } = leafTask(action);
  switch (action.kind) {
    case 'continueAsNew':
      return true;
    case 'waitForEvent':
      return (ledger.raised.get(action.name) ?? 0) >= (eventOrdinal ?? 1);
    case 'timer': {
      if (action.canceled === true) return true;
      if (!task) return false;
      // A long timer is done when its latest leg has fired and no other leg followed.
      const long = ledger.longTimers.get(task.eventId);
      return ledger.results.has(long ? long.lastLegId : task.eventId);
    }
    case 'activity':
    case 'subOrchestration': {
      if (!task) return false;
      const chain = ledger.chains.get(task.eventId);
      return chain ? chain.done : ledger.results.has(task.eventId);
    }
    default:
      return false;
  }
}

/** The extension's limit on a custom status (`DurableOrchestrationContext.SetCustomStatus`). */
export const MAX_CUSTOM_STATUS_KB = 16;

/**
 * Why the extension refuses `customStatus`, or undefined when it takes it. The rule of
 * `MessagePayloadDataConverter.Serialize(value, 16)`: the UTF-16 size of the compact JSON, in
 * whole KB rounded down, must not exceed 16.
 */
export function customStatusProblem(customStatus: unknown): string | undefined {
  if (customStatus === undefined || customStatus === null) return undefined;
  const json = JSON.stringify(customStatus);
  const sizeKb = Math.floor((json.length * 2) / 1024);
  if (sizeKb <= MAX_CUSTOM_STATUS_KB) return undefined;
  return (
    `The UTF-16 size of the JSON-serialized payload must not exceed ${MAX_CUSTOM_STATUS_KB} KB. ` +
    `The current payload size is ${sizeKb.toLocaleString('en-US')} KB.`
  );
}

/** The functions of the app, as the extension knows them. */
export interface KnownFunctions {
  activities: ReadonlySet<string>;
  orchestrations: ReadonlySet<string>;
}

/**
 * The extension's refusal of a call to a function the app does not have
 * (`DurableTaskExtension.ThrowIfFunctionDoesNotExist`, called on every call, replays too): the
 * orchestrator fails at once, nothing is scheduled or retried.
 */
export function unknownFunctionProblem(
  action: OrchestratorAction,
  known: KnownFunctions | undefined,
): string | undefined {
  if (!known || (action.kind !== 'activity' && action.kind !== 'subOrchestration')) return;
  const activity = action.kind === 'activity';
  const names = [...(activity ? known.activities : known.orchestrations)];
  const lower = action.name.toLowerCase();
  if (names.some((name) => name.toLowerCase() === lower)) return undefined;
  const what = activity ? 'activity' : 'orchestrator';
  const info =
    names.length > 0
      ? `The following are the known ${what} functions: '${names.join("', '")}'.`
      : `No ${what} functions are currently registered!`;
  return `The function '${action.name}' doesn't exist, is disabled, or is not an ${what} function. Additional info: ${info}`;
}

/**
 * A retry timeout is refused: in Azure, once it passes, DurableTask.Core's RetryInterceptor stops
 * without the retry timer `durable-functions` waits for, and the orchestration hangs Running for
 * ever (Azure/azure-functions-durable-js#629). ESLint forbids it in the app too.
 */
export function retryTimeoutProblem(action: OrchestratorAction): string | undefined {
  if (action.kind !== 'activity' && action.kind !== 'subOrchestration') return undefined;
  const timeout = action.retry?.retryTimeoutInMilliseconds;
  if (timeout === undefined || timeout <= 0) return undefined;
  return (
    `retryTimeoutInMilliseconds is set on the retry options of '${action.name}': in Azure an ` +
    'orchestration whose retry timeout passes hangs Running for ever ' +
    '(Azure/azure-functions-durable-js#629), so the local runtime refuses it. Leave it unset.'
  );
}

/**
 * DurableTask.Core's message when the history holds a task the replay did not ask for
 * (`TaskOrchestrationContext.HandleTaskScheduledEvent` and siblings), which fails the
 * orchestration (`TaskOrchestrationExecutor`: NonDeterministicOrchestrationException).
 */
export function missingTaskProblem(task: ScheduledTask): string {
  const id = task.eventId;
  const name = task.event.Name ?? '';
  const tail =
    'Was a change made to the orchestrator code after this instance had already started running?';
  if (task.kind === 'timer') {
    return `A previous execution of this orchestration scheduled a timer task with sequence number ${id} but the current replay execution hasn't (yet?) scheduled this task. ${tail}`;
  }
  if (task.kind === 'subOrchestration') {
    return `A previous execution of this orchestration scheduled a sub-orchestration task with sequence ID ${id} and name '${name}' (version '', instance ID '${task.event.InstanceId ?? ''}'), but the current replay execution hasn't (yet?) scheduled this task. ${tail}`;
  }
  return `A previous execution of this orchestration scheduled an activity task with sequence ID ${id} and name '${name}' (version ''), but the current replay execution hasn't (yet?) scheduled this task. ${tail}`;
}
