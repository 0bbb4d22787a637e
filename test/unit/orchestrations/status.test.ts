/**
 * What `GET /orchestrations/{id}` shows of a Durable status: id, name and runtime status always;
 * the output only when Completed; the failure reason (without Durable's wrappers) only when
 * Failed; the orchestrator's own progress report (its custom status) as `progress`; never the input
 * or history. An unknown instance becomes
 * `OrchestrationNotFound`; other client errors pass through.
 */
import { NotFoundError, UnavailableError } from '../../../src/domainErrors';
import {
  failureReason,
  hasEnded,
  isExtensionUnavailable,
  isInstanceNotFound,
  isOrchestrationId,
  orchestrationView,
  readOrchestration,
  startInstance,
  type DurableStatusFields,
  type OrchestrationStatusSource,
} from '../../../src/orchestrations/status';

const ID = '0123456789abcdef0123456789abcdef';

/** A status as `DurableClient.getStatus` returns it, with the fields the view must not show. */
function durableStatus(runtimeStatus: string, output: unknown): DurableStatusFields {
  return Object.assign(
    { instanceId: ID, name: 'MoveEmployeeOrchestrator', runtimeStatus, output },
    {
      input: { department: 'Sales', employeeId: '000001', toDepartment: 'HR' },
      customStatus: { step: 'copy', round: 1 },
      createdTime: new Date(0),
      lastUpdatedTime: new Date(0),
    },
  );
}

/** The message `durable-functions` 3.x throws from `getStatus` on a 404 of the extension. */
const LIBRARY_404 =
  'DurableClient error: Durable Functions extension replied with HTTP 404 response. This usually ' +
  `means we could not find any data associated with the instanceId provided: ${ID}.`;

describe('orchestrationView', () => {
  it('shows the output of a completed instance and its last progress, and nothing else of Durable', () => {
    const view = orchestrationView(durableStatus('Completed', { moved: true }));
    expect(view).toEqual({
      id: ID,
      name: 'MoveEmployeeOrchestrator',
      runtimeStatus: 'Completed',
      output: { moved: true },
      progress: { step: 'copy', round: 1 },
    });
  });

  it('shows no progress before the orchestrator reported any', () => {
    for (const customStatus of [undefined, null, '']) {
      const status = { ...durableStatus('Running', undefined), customStatus };
      expect(orchestrationView(status)).not.toHaveProperty('progress');
    }
  });

  it('shows a completed instance without a return value as output null', () => {
    expect(orchestrationView(durableStatus('Completed', undefined))).toHaveProperty('output', null);
  });

  it('shows the reason of a failed instance, not its output', () => {
    const view = orchestrationView(
      durableStatus(
        'Failed',
        "Orchestrator function 'MoveEmployeeOrchestrator' failed: Error: EmployeeExists: Employee 000002 already exists.",
      ),
    );
    expect(view).toEqual({
      id: ID,
      name: 'MoveEmployeeOrchestrator',
      runtimeStatus: 'Failed',
      failure: 'EmployeeExists: Employee 000002 already exists.',
      progress: { step: 'copy', round: 1 },
    });
  });

  it.each(['Pending', 'Running', 'Terminated', 'ContinuedAsNew', 'Suspended'])(
    'shows neither output nor failure while %s, only the progress',
    (runtimeStatus) => {
      expect(orchestrationView(durableStatus(runtimeStatus, 'something'))).toEqual({
        id: ID,
        name: 'MoveEmployeeOrchestrator',
        runtimeStatus,
        progress: { step: 'copy', round: 1 },
      });
    },
  );
});

describe('failureReason', () => {
  it('removes the Durable and Error wrappers of the message', () => {
    expect(failureReason("Orchestrator function 'X' failed: Error: no such department")).toBe(
      'no such department',
    );
    expect(failureReason("Orchestrator function 'X' failed: SourceKeptChanging: gave up")).toBe(
      'SourceKeptChanging: gave up',
    );
    expect(failureReason('plain text')).toBe('plain text');
  });

  it('reads a message property, serialises other values, and never answers empty', () => {
    expect(failureReason({ message: 'from an object' })).toBe('from an object');
    expect(failureReason({ code: 7 })).toBe('{"code":7}');
    expect(failureReason(null)).toBe('The orchestration failed without a reason.');
    expect(failureReason("Orchestrator function 'X' failed: ")).toBe(
      'The orchestration failed without a reason.',
    );
  });
});

/**
 * What the deployed extension hands a JavaScript orchestrator for a failed activity (legacy error
 * propagation, extension bundle 4): TaskFailed's Reason = "Activity function '<name>' failed:
 * <text after '\nException:'>" (TaskActivityShim + OutOfProcExceptionHelpers) and Details = the
 * exception serialised with TypeNameHandling.Objects, wrapping the host's RpcException
 * ("Result: Failure\nException: <message>\nStack: <stack>"). durable-functions rejects the task
 * with `${Reason} \n ${Details}`, and the extension fails the orchestration with
 * "Orchestrator function '<name>' failed: <that message>". Written by hand from those sources.
 */
const NODE_STACK =
  'Error: Storage is unavailable\n    at archiveChunk (/home/site/wwwroot/dist/src/orchestrations/archive/archiveChunk.js:41:15)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)';
const AZURE_DETAILS = JSON.stringify({
  $type: 'System.Exception, System.Private.CoreLib',
  ClassName: 'System.Exception',
  Message: ' Storage is unavailable',
  Data: null,
  InnerException: {
    $type:
      'Microsoft.Azure.WebJobs.Script.Workers.Rpc.RpcException, Microsoft.Azure.WebJobs.Script',
    ClassName: 'Microsoft.Azure.WebJobs.Script.Workers.Rpc.RpcException',
    Message: `Result: Failure\nException: Storage is unavailable\nStack: ${NODE_STACK}`,
    Data: { $type: 'System.Collections.ListDictionaryInternal, System.Private.CoreLib' },
    InnerException: null,
    HelpURL: null,
    StackTraceString:
      '   at Microsoft.Azure.WebJobs.Script.Description.WorkerFunctionInvoker.InvokeCore(Object[] parameters, FunctionInvocationContext context)',
    RemoteStackTraceString: null,
    RemoteStackIndex: 0,
    ExceptionMethod: null,
    HResult: -2146233088,
    Source: 'System.Private.CoreLib',
    WatsonBuckets: null,
  },
  HelpURL: null,
  StackTraceString: null,
  RemoteStackTraceString: null,
  RemoteStackIndex: 0,
  ExceptionMethod: null,
  HResult: -2146233088,
  Source: null,
  WatsonBuckets: null,
});
const AZURE_ACTIVITY_FAILURE = `Orchestrator function 'ArchiveDepartmentOrchestrator' failed: Activity function 'archiveDepartmentChunk' failed:  Storage is unavailable \n ${AZURE_DETAILS}`;

/** What a `failure` must never show. */
function expectPlainLine(failure: string): void {
  expect(failure).not.toMatch(/[\r\n]/);
  expect(failure).not.toContain('$type');
  expect(failure).not.toMatch(/\bat .*:\d+:\d+/);
  expect(failure).not.toMatch(/\b(?:System|Microsoft)\.\w/);
  expect(failure).not.toMatch(/Result: Failure|StackTrace|Stack:/);
  expect(failure.length).toBeLessThanOrEqual(500);
}

describe('failureReason with the shapes the deployed runtime gives', () => {
  it('keeps only the reason line of an uncaught activity failure (Reason + serialised .NET exception)', () => {
    const failure = failureReason(AZURE_ACTIVITY_FAILURE);
    expect(failure).toBe(
      "Activity function 'archiveDepartmentChunk' failed: Storage is unavailable",
    );
    expectPlainLine(failure);
  });

  it('unwraps nested sub-orchestration failures and the retry-exhausted activity the same way', () => {
    const nested = `Orchestrator function 'Parent' failed: Orchestrator function 'Child' failed: Activity function 'copyChunk' failed:  gave up \n ${AZURE_DETAILS}`;
    expect(failureReason(nested)).toBe("Activity function 'copyChunk' failed: gave up");
    const details = `Orchestrator function 'Parent' failed: Orchestrator function 'Child' failed: boom \n Message: boom, StackTrace:    at Microsoft.Azure.WebJobs.Extensions.DurableTask.OutOfProcOrchestrationShim.ScheduleDurableTaskEvents(OrchestrationInvocationResult result)`;
    expect(failureReason(details)).toBe('boom');
  });

  it('drops .NET type names, the host RpcException text and FailureDetails shapes', () => {
    const shapes: unknown[] = [
      "Orchestrator function 'X' failed: System.Exception: Storage is unavailable",
      `Orchestrator function 'X' failed: Microsoft.Azure.WebJobs.Script.Workers.Rpc.RpcException: Result: Failure\nException: Storage is unavailable\nStack: ${NODE_STACK}`,
      {
        ErrorType: 'System.Exception',
        ErrorMessage: 'Storage is unavailable',
        StackTrace: NODE_STACK,
      },
      JSON.stringify({
        $type: 'System.Exception, System.Private.CoreLib',
        Message: 'Storage is unavailable',
      }),
      `Orchestrator function 'X' failed: Storage is unavailable ${AZURE_DETAILS}`,
    ];
    for (const shape of shapes) {
      const failure = failureReason(shape);
      expect(failure).toBe('Storage is unavailable');
      expectPlainLine(failure);
    }
    expect(failureReason({ $type: 'Some.Thing', code: 7 })).toBe('{"code":7}');
  });

  it('keeps a refusal as the orchestrator threw it, and cuts a very long reason', () => {
    expect(
      failureReason(
        `Orchestrator function 'X' failed: EmployeeExists: Employee 000002 already exists`,
      ),
    ).toBe('EmployeeExists: Employee 000002 already exists');
    const long = failureReason(`Orchestrator function 'X' failed: ${'x'.repeat(2000)}`);
    expect(long).toHaveLength(500);
    expectPlainLine(long);
  });
});

describe('isOrchestrationId', () => {
  it('accepts the 32 lowercase hex digits Durable hands out, and nothing else', () => {
    expect(isOrchestrationId(ID)).toBe(true);
    for (const garbage of [
      '',
      ID.toUpperCase(),
      `${ID}0`,
      ID.slice(1),
      '@entity@key',
      '../../instances',
      `${ID.slice(0, 31)}g`,
    ]) {
      expect(isOrchestrationId(garbage)).toBe(false);
    }
  });
});

describe('hasEnded', () => {
  it('is true for the terminal statuses only', () => {
    const view = (runtimeStatus: string) => ({ id: ID, name: 'N', runtimeStatus });
    expect(['Completed', 'Failed', 'Terminated', 'Canceled'].map((s) => hasEnded(view(s)))).toEqual(
      [true, true, true, true],
    );
    expect(['Pending', 'Running', 'Suspended'].map((s) => hasEnded(view(s)))).toEqual([
      false,
      false,
      false,
    ]);
  });
});

describe('readOrchestration', () => {
  it('asks for the status without history or input, and maps it', async () => {
    const calls: unknown[][] = [];
    const source: OrchestrationStatusSource = {
      getStatus: (...args) => {
        calls.push(args);
        return Promise.resolve(durableStatus('Running', null));
      },
    };
    await expect(readOrchestration(source, ID)).resolves.toEqual({
      id: ID,
      name: 'MoveEmployeeOrchestrator',
      runtimeStatus: 'Running',
      progress: { step: 'copy', round: 1 },
    });
    expect(calls).toEqual([
      [ID, { showHistory: false, showHistoryOutput: false, showInput: false }],
    ]);
  });

  it("turns the client's 404 into OrchestrationNotFound", async () => {
    expect(isInstanceNotFound(new Error(LIBRARY_404))).toBe(true);
    const source: OrchestrationStatusSource = {
      getStatus: () => Promise.reject(new Error(LIBRARY_404)),
    };
    const error = await readOrchestration(source, ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: 'OrchestrationNotFound' });
    expect((error as Error).message).not.toContain('Durable');
  });

  it('turns a server error of the extension (its storage throttled) into a 503, not a 500', async () => {
    for (const message of [
      'The operation failed with an unexpected status code: 500. Details: {}',
      'The operation failed with an unexpected status code: 503. Details: {}',
      'DurableClient error: the Durable Functions extension replied with an empty HTTP 502 response.',
    ]) {
      const failure = new Error(message);
      expect(isExtensionUnavailable(failure)).toBe(true);
      const source: OrchestrationStatusSource = { getStatus: () => Promise.reject(failure) };
      const error = await readOrchestration(source, ID).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnavailableError);
      expect((error as UnavailableError).cause).toBe(failure);
    }
  });

  it('lets any other client error through', async () => {
    const failure = new Error(
      'The operation failed with an unexpected status code: 400. Details: {}',
    );
    expect(isInstanceNotFound(failure)).toBe(false);
    expect(isExtensionUnavailable(failure)).toBe(false);
    expect(isInstanceNotFound('HTTP 404')).toBe(false);
    const source: OrchestrationStatusSource = { getStatus: () => Promise.reject(failure) };
    await expect(readOrchestration(source, ID)).rejects.toBe(failure);
  });
});

describe('startInstance', () => {
  it('returns the id the client started, with the name and options passed on', async () => {
    const calls: unknown[] = [];
    const starter = {
      startNew: (name: string, options: unknown) => {
        calls.push([name, options]);
        return Promise.resolve(ID);
      },
    };
    await expect(startInstance(starter, 'MoveEmployee', { input: { a: 1 } })).resolves.toBe(ID);
    expect(calls).toEqual([['MoveEmployee', { input: { a: 1 } }]]);
  });

  it('turns a server error of the extension (its storage throttled) into a 503, not a 500', async () => {
    const failure = new Error(
      'The operation failed with an unexpected status code: 500. Details: {}',
    );
    const starter = { startNew: () => Promise.reject(failure) };
    const error = await startInstance(starter, 'MoveEmployee', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).cause).toBe(failure);
  });

  it('lets any other client error through', async () => {
    const failure = new Error(
      'The operation failed with an unexpected status code: 400. Details: {}',
    );
    const starter = { startNew: () => Promise.reject(failure) };
    await expect(startInstance(starter, 'MoveEmployee', {})).rejects.toBe(failure);
  });
});
