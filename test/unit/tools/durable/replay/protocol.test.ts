/**
 * The runtime's view of the `durable-functions` protocol: event and action numbering pinned to
 * the library's enums, action flattening and input decoding, reading returned and thrown states,
 * failure details, and the client input the DurableClient is built from.
 */
import {
  ActionType,
  flattenActions,
  MalformedActionsError,
} from '../../../../../tools/durable/replay/actions';
import { buildClientInput, managementPayload } from '../../../../../tools/durable/http/clientInput';
import {
  activityFailure,
  EventType,
  orchestrationFailureDetails,
} from '../../../../../tools/durable/replay/historyEvents';
import {
  outcomeFromError,
  outcomeFromReturn,
} from '../../../../../tools/durable/replay/orchestratorInput';

describe('durable protocol: numbering', () => {
  it('uses the library HistoryEventType and ActionType numbers', () => {
    const library = {
      events: jest.requireActual<{ HistoryEventType: Record<string, number> }>(
        'durable-functions/lib/src/history/HistoryEventType',
      ).HistoryEventType,
      actions: jest.requireActual<{ ActionType: Record<string, number> }>(
        'durable-functions/lib/src/actions/ActionType',
      ).ActionType,
    };
    for (const [name, value] of Object.entries(EventType)) expect(library.events[name]).toBe(value);
    for (const [name, value] of Object.entries(ActionType))
      expect(library.actions[name]).toBe(value);
  });
});

describe('durable protocol: actions', () => {
  it('flattens compound actions depth-first, in yield order', () => {
    const actions = [
      [
        { actionType: 0, functionName: 'A', input: '"text"' },
        {
          actionType: 12,
          compoundActions: [
            { actionType: 0, functionName: 'B', input: { n: 1 } },
            {
              actionType: 11,
              compoundActions: [
                { actionType: 5, fireAt: '2024-05-01T10:00:00.000Z', isCanceled: false },
                { actionType: 6, externalEventName: 'Go' },
              ],
            },
          ],
        },
        { actionType: 2, functionName: 'Child', input: 'raw', instanceId: '' },
      ],
    ];
    expect(flattenActions(actions)).toEqual([
      { kind: 'activity', name: 'A', input: 'text', retry: undefined },
      { kind: 'activity', name: 'B', input: { n: 1 }, retry: undefined },
      { kind: 'timer', fireAt: '2024-05-01T10:00:00.000Z' },
      { kind: 'waitForEvent', name: 'Go' },
      {
        kind: 'subOrchestration',
        name: 'Child',
        instanceId: undefined,
        input: 'raw',
        retry: undefined,
      },
    ]);
  });

  it('reads retry options and marks entity and HTTP actions as unsupported', () => {
    const [retried, entity, http] = flattenActions([
      [
        {
          actionType: 1,
          functionName: 'F',
          retryOptions: {
            firstRetryIntervalInMilliseconds: 100,
            maxNumberOfAttempts: 3,
            backoffCoefficient: 2,
          },
        },
        { actionType: 9, operation: 'add' },
        { actionType: 8, httpRequest: {} },
      ],
    ]);
    expect(retried).toMatchObject({
      kind: 'activity',
      retry: {
        firstRetryIntervalInMilliseconds: 100,
        maxNumberOfAttempts: 3,
        backoffCoefficient: 2,
      },
    });
    expect(entity).toEqual({ kind: 'unsupported', description: 'signalEntity (durable entities)' });
    expect(http).toEqual({ kind: 'unsupported', description: 'callHttp (durable HTTP)' });
  });

  it('rejects what the library never produces', () => {
    expect(() => flattenActions([[{ actionType: 99 }]])).toThrow(MalformedActionsError);
    expect(() => flattenActions([[{ actionType: 0, functionName: '' }]])).toThrow(/functionName/);
    expect(() => flattenActions([[{ actionType: 5, fireAt: 'soon' }]])).toThrow(/fireAt/);
    expect(() =>
      flattenActions([
        [
          {
            actionType: 1,
            functionName: 'F',
            retryOptions: { firstRetryIntervalInMilliseconds: 0, maxNumberOfAttempts: 1 },
          },
        ],
      ]),
    ).toThrow(/> 0/);
    expect(() => flattenActions([['not an action']])).toThrow(MalformedActionsError);
  });
});

describe('durable protocol: orchestrator results', () => {
  it('reads a returned state in object or JSON text form', () => {
    const state = { isDone: false, actions: [[]], schemaVersion: 2 };
    expect(outcomeFromReturn(state)).toEqual({ kind: 'state', state });
    expect(outcomeFromReturn(JSON.stringify(state))).toEqual({ kind: 'state', state });
    expect(outcomeFromReturn('hello')).toMatchObject({
      kind: 'failed',
      message: expect.stringContaining('df.app.orchestration'),
    });
  });

  it('reads the error and failure details out of an OrchestrationFailureError', () => {
    const state = {
      isDone: false,
      actions: [[]],
      error: 'Error: boom',
      failureDetails: { ErrorType: 'Error', ErrorMessage: 'boom' },
      customStatus: 'half',
    };
    // durable-functions 3.x puts a boolean before the label, so the message itself reads "false".
    const thrown = new Error(`false\n\n$OutOfProcData$:${JSON.stringify(state)}`);
    expect(outcomeFromError(thrown)).toEqual({
      kind: 'failed',
      message: 'Error: boom',
      failureDetails: { ErrorType: 'Error', ErrorMessage: 'boom' },
      customStatus: 'half',
      // The actions travel on: the extension replays them before it fails the orchestration.
      state: { isDone: false, actions: [[]], customStatus: 'half' },
    });
    expect(outcomeFromError(new TypeError('no binding'))).toMatchObject({
      kind: 'failed',
      message: 'no binding',
      failureDetails: { ErrorType: 'TypeError' },
    });
  });

  it('gives a failed activity the Reason and Details the extension writes (a serialised .NET exception)', () => {
    const error = new RangeError('too far');
    const { Reason, Details } = activityFailure('CopyChunk', error);
    // TaskActivityShim: "Activity function '<name>' failed: <text after '\nException:'>".
    expect(Reason).toBe("Activity function 'CopyChunk' failed:  too far");
    expect(JSON.parse(Details)).toMatchObject({
      $type: 'System.Exception, System.Private.CoreLib',
      ClassName: 'System.Exception',
      Message: ' too far',
      InnerException: {
        $type:
          'Microsoft.Azure.WebJobs.Script.Workers.Rpc.RpcException, Microsoft.Azure.WebJobs.Script',
        Message: `Result: Failure\nException: too far\nStack: ${error.stack}`,
      },
    });
    expect(activityFailure('X', 'plain string').Reason).toBe(
      "Activity function 'X' failed:  plain string",
    );
    expect(orchestrationFailureDetails('boom', 'at here')).toBe(
      'Message: boom, StackTrace: at here',
    );
  });
});

describe('durable protocol: client input', () => {
  const input = buildClientInput('http://127.0.0.1:7071/', 'DirectoryHub');

  it('points the DurableClient at the host webhook API, with the placeholders the library replaces', () => {
    expect(input.rpcBaseUrl).toBe('http://127.0.0.1:7071/runtime/webhooks/durabletask/');
    expect(input.baseUrl).toBe('http://127.0.0.1:7071/runtime/webhooks/durabletask');
    expect(input.creationUrls.createNewInstancePostUri).toBe(
      'http://127.0.0.1:7071/runtime/webhooks/durabletask/orchestrators/{functionName}[/{instanceId}]?taskHub=DirectoryHub&connection=Storage',
    );
    expect(input.managementUrls.sendEventPostUri).toBe(
      'http://127.0.0.1:7071/runtime/webhooks/durabletask/instances/INSTANCEID/raiseEvent/{eventName}?taskHub=DirectoryHub&connection=Storage',
    );
    const isClientInput = jest.requireActual<{
      OrchestrationClientInputData: { isOrchestrationClientInputData(x: unknown): boolean };
    }>('durable-functions/lib/src/durableClient/OrchestrationClientInputData')
      .OrchestrationClientInputData.isOrchestrationClientInputData;
    expect(isClientInput(input)).toBe(true);
  });

  it('fills in one instance, URL-encoded', () => {
    const payload = managementPayload(input, 'order 7:1');
    expect(payload.id).toBe('order 7:1');
    expect(payload.statusQueryGetUri).toBe(
      'http://127.0.0.1:7071/runtime/webhooks/durabletask/instances/order%207%3A1?taskHub=DirectoryHub&connection=Storage',
    );
    expect(payload.terminatePostUri).toContain('/instances/order%207%3A1/terminate?reason={text}');
  });
});
