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
