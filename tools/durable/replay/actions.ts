/**
 * The actions an orchestrator returns (`OrchestratorState.actions`), read in the order the
 * orchestrator yielded them.
 *
 * `durable-functions` returns every action of the whole replay, nested in `WhenAll`/`WhenAny`
 * compound actions (replay schema V2+) or one array per yield (V1). Flattening them depth-first
 * gives the order in which the library numbered its tasks, which is the order the runtime must
 * give sequence numbers to the events it schedules.
 */
import type { RetryPolicy } from './historyEvents';

/** Action type numbers of `durable-functions` (lib/src/actions/ActionType.js). */
export const ActionType = {
  CallActivity: 0,
  CallActivityWithRetry: 1,
  CallSubOrchestrator: 2,
  CallSubOrchestratorWithRetry: 3,
  ContinueAsNew: 4,
  CreateTimer: 5,
  WaitForExternalEvent: 6,
  CallEntity: 7,
  CallHttp: 8,
  SignalEntity: 9,
  WhenAny: 11,
  WhenAll: 12,
  LockEntities: 13,
  ReleaseEntities: 14,
} as const;

/** One action, decoded. */
export type OrchestratorAction =
  | { kind: 'activity'; name: string; input: unknown; retry?: RetryPolicy }
  | {
      kind: 'subOrchestration';
      name: string;
      instanceId?: string;
      input: unknown;
      retry?: RetryPolicy;
    }
  | { kind: 'timer'; fireAt: string; canceled?: boolean }
  | { kind: 'waitForEvent'; name: string }
  | { kind: 'continueAsNew'; input: unknown }
  | { kind: 'unsupported'; description: string };

/** The action list is not what `durable-functions` produces. */
export class MalformedActionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedActionsError';
  }
}

const UNSUPPORTED: Record<number, string> = {
  [ActionType.CallEntity]: 'callEntity (durable entities)',
  [ActionType.SignalEntity]: 'signalEntity (durable entities)',
  [ActionType.LockEntities]: 'lock (durable entities)',
  [ActionType.ReleaseEntities]: 'releasing entity locks (durable entities)',
  [ActionType.CallHttp]: 'callHttp (durable HTTP)',
};

/**
 * One node of the action list: a `Task.all` / `Task.any` over its children, or one action. The
 * extension awaits the top-level nodes one after the other (OutOfProcOrchestrationShim).
 */
export type ActionNode =
  { kind: 'all' | 'any'; children: ActionNode[] } | { kind: 'leaf'; action: OrchestratorAction };

/**
 * The top-level nodes in yield order (nested arrays of schema V1 read as one sequence).
 *
 * @throws {MalformedActionsError} when an entry is not a recognisable action.
 */
export function actionTree(actions: unknown): ActionNode[] {
  const nodes: ActionNode[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    nodes.push(decodeNode(node));
  };
  visit(actions);
  return nodes;
}

function decodeNode(node: unknown): ActionNode {
  const action = asRecord(node, 'action');
  const type = action.actionType;
  if (type === ActionType.WhenAll || type === ActionType.WhenAny) {
    const children = action.compoundActions ?? [];
    if (!Array.isArray(children)) {
      throw new MalformedActionsError('compoundActions must be an array.');
    }
    return {
      kind: type === ActionType.WhenAll ? 'all' : 'any',
      children: children.map(decodeNode),
    };
  }
  return { kind: 'leaf', action: decodeAction(action) };
}

/** The actions of `nodes` depth-first: the order in which `durable-functions` numbered them. */
export function leavesOf(nodes: readonly ActionNode[]): OrchestratorAction[] {
  return nodes.flatMap((node) => (node.kind === 'leaf' ? [node.action] : leavesOf(node.children)));
}

/**
 * Flattens the (JSON) action list depth-first.
 *
 * @throws {MalformedActionsError} when an entry is not a recognisable action.
 */
export function flattenActions(actions: unknown): OrchestratorAction[] {
  return leavesOf(actionTree(actions));
}

function decodeAction(action: Record<string, unknown>): OrchestratorAction {
  const type = action.actionType;
  switch (type) {
    case ActionType.CallActivity:
    case ActionType.CallActivityWithRetry:
      return {
        kind: 'activity',
        name: nonEmptyString(action.functionName, 'functionName'),
        input: decodeProcessedInput(action.input),
        retry:
          type === ActionType.CallActivityWithRetry ? retryPolicy(action.retryOptions) : undefined,
      };
    case ActionType.CallSubOrchestrator:
    case ActionType.CallSubOrchestratorWithRetry:
      return {
        kind: 'subOrchestration',
        name: nonEmptyString(action.functionName, 'functionName'),
        instanceId:
          typeof action.instanceId === 'string' && action.instanceId !== ''
            ? action.instanceId
            : undefined,
        input: action.input,
        retry:
          type === ActionType.CallSubOrchestratorWithRetry
            ? retryPolicy(action.retryOptions)
            : undefined,
      };
    case ActionType.CreateTimer: {
      const fireAt = new Date(nonEmptyString(action.fireAt, 'fireAt'));
      if (Number.isNaN(fireAt.getTime())) {
        throw new MalformedActionsError(
          `Timer action has an invalid fireAt: ${String(action.fireAt)}.`,
        );
      }
      // A cancelled timer (`timer.cancel()` after Task.any) completes at once in the extension.
      return {
        kind: 'timer',
        fireAt: fireAt.toISOString(),
        ...(action.isCanceled === true ? { canceled: true } : {}),
      };
    }
    case ActionType.WaitForExternalEvent:
      return {
        kind: 'waitForEvent',
        name: nonEmptyString(action.externalEventName, 'externalEventName'),
      };
    case ActionType.ContinueAsNew:
      return { kind: 'continueAsNew', input: decodeProcessedInput(action.input) };
    default: {
      const description = typeof type === 'number' ? UNSUPPORTED[type] : undefined;
      if (description) return { kind: 'unsupported', description };
      throw new MalformedActionsError(`Unknown action type ${JSON.stringify(type)}.`);
    }
  }
}

/**
 * `durable-functions` JSON-encodes string inputs of activities and continue-as-new
 * (`Utils.processInput`); the extension decodes them again before the activity sees them.
 */
function decodeProcessedInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

function retryPolicy(value: unknown): RetryPolicy {
  const options = asRecord(value, 'retryOptions');
  const first = options.firstRetryIntervalInMilliseconds;
  const attempts = options.maxNumberOfAttempts;
  if (typeof first !== 'number' || !(first > 0)) {
    throw new MalformedActionsError('retryOptions.firstRetryIntervalInMilliseconds must be > 0.');
  }
  if (typeof attempts !== 'number' || !Number.isFinite(attempts)) {
    throw new MalformedActionsError('retryOptions.maxNumberOfAttempts must be a number.');
  }
  const optional = (name: string): number | undefined => {
    const v = options[name];
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  };
  return {
    firstRetryIntervalInMilliseconds: first,
    maxNumberOfAttempts: attempts,
    backoffCoefficient: optional('backoffCoefficient'),
    maxRetryIntervalInMilliseconds: optional('maxRetryIntervalInMilliseconds'),
    retryTimeoutInMilliseconds: optional('retryTimeoutInMilliseconds'),
  };
}

function asRecord(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object') {
    throw new MalformedActionsError(`Expected an ${what} object, got ${JSON.stringify(value)}.`);
  }
  return value as Record<string, unknown>;
}

function nonEmptyString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new MalformedActionsError(`Action field ${field} must be a non-empty string.`);
  }
  return value;
}
