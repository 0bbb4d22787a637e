"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MalformedActionsError = exports.ActionType = void 0;
exports.flattenActions = flattenActions;
/** Action type numbers of `durable-functions` (lib/src/actions/ActionType.js). */
exports.ActionType = {
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
};
/** The action list is not what `durable-functions` produces. */
class MalformedActionsError extends Error {
    constructor(message) {
        super(message);
        this.name = 'MalformedActionsError';
    }
}
exports.MalformedActionsError = MalformedActionsError;
const UNSUPPORTED = {
    [exports.ActionType.CallEntity]: 'callEntity (durable entities)',
    [exports.ActionType.SignalEntity]: 'signalEntity (durable entities)',
    [exports.ActionType.LockEntities]: 'lock (durable entities)',
    [exports.ActionType.ReleaseEntities]: 'releasing entity locks (durable entities)',
    [exports.ActionType.CallHttp]: 'callHttp (durable HTTP)',
};
/**
 * Flattens the (JSON) action list depth-first.
 *
 * @throws {MalformedActionsError} when an entry is not a recognisable action.
 */
function flattenActions(actions) {
    const flat = [];
    const visit = (node) => {
        if (Array.isArray(node)) {
            for (const child of node)
                visit(child);
            return;
        }
        const action = asRecord(node, 'action');
        const type = action.actionType;
        if (type === exports.ActionType.WhenAll || type === exports.ActionType.WhenAny) {
            visit(action.compoundActions ?? []);
            return;
        }
        flat.push(decodeAction(action));
    };
    visit(actions);
    return flat;
}
function decodeAction(action) {
    const type = action.actionType;
    switch (type) {
        case exports.ActionType.CallActivity:
        case exports.ActionType.CallActivityWithRetry:
            return {
                kind: 'activity',
                name: nonEmptyString(action.functionName, 'functionName'),
                input: decodeProcessedInput(action.input),
                retry: type === exports.ActionType.CallActivityWithRetry ? retryPolicy(action.retryOptions) : undefined,
            };
        case exports.ActionType.CallSubOrchestrator:
        case exports.ActionType.CallSubOrchestratorWithRetry:
            return {
                kind: 'subOrchestration',
                name: nonEmptyString(action.functionName, 'functionName'),
                instanceId: typeof action.instanceId === 'string' && action.instanceId !== ''
                    ? action.instanceId
                    : undefined,
                input: action.input,
                retry: type === exports.ActionType.CallSubOrchestratorWithRetry
                    ? retryPolicy(action.retryOptions)
                    : undefined,
            };
        case exports.ActionType.CreateTimer: {
            const fireAt = new Date(nonEmptyString(action.fireAt, 'fireAt'));
            if (Number.isNaN(fireAt.getTime())) {
                throw new MalformedActionsError(`Timer action has an invalid fireAt: ${String(action.fireAt)}.`);
            }
            return { kind: 'timer', fireAt: fireAt.toISOString() };
        }
        case exports.ActionType.WaitForExternalEvent:
            return {
                kind: 'waitForEvent',
                name: nonEmptyString(action.externalEventName, 'externalEventName'),
            };
        case exports.ActionType.ContinueAsNew:
            return { kind: 'continueAsNew', input: decodeProcessedInput(action.input) };
        default: {
            const description = typeof type === 'number' ? UNSUPPORTED[type] : undefined;
            if (description)
                return { kind: 'unsupported', description };
            throw new MalformedActionsError(`Unknown action type ${JSON.stringify(type)}.`);
        }
    }
}
/**
 * `durable-functions` JSON-encodes string inputs of activities and continue-as-new
 * (`Utils.processInput`); the extension decodes them again before the activity sees them.
 */
function decodeProcessedInput(input) {
    if (typeof input !== 'string')
        return input;
    try {
        return JSON.parse(input);
    }
    catch {
        return input;
    }
}
function retryPolicy(value) {
    const options = asRecord(value, 'retryOptions');
    const first = options.firstRetryIntervalInMilliseconds;
    const attempts = options.maxNumberOfAttempts;
    if (typeof first !== 'number' || !(first > 0)) {
        throw new MalformedActionsError('retryOptions.firstRetryIntervalInMilliseconds must be > 0.');
    }
    if (typeof attempts !== 'number' || !Number.isFinite(attempts)) {
        throw new MalformedActionsError('retryOptions.maxNumberOfAttempts must be a number.');
    }
    const optional = (name) => {
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
function asRecord(value, what) {
    if (value === null || typeof value !== 'object') {
        throw new MalformedActionsError(`Expected an ${what} object, got ${JSON.stringify(value)}.`);
    }
    return value;
}
function nonEmptyString(value, field) {
    if (typeof value !== 'string' || value === '') {
        throw new MalformedActionsError(`Action field ${field} must be a non-empty string.`);
    }
    return value;
}
//# sourceMappingURL=actions.js.map