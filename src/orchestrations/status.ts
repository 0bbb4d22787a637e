/**
 * What a client may see of an orchestration instance (API.md "Orchestrations"): its id, name,
 * runtime status, the output once it completed, and the reason once it failed. Nothing of the
 * Durable Functions management API (URLs, keys, input, history) leaves through here.
 */
import { orchestrationNotFound, orchestrationStatusUnavailable } from './orchestrationErrors';

/** `GET /orchestrations/{id}`: the status of one orchestration instance. */
export interface OrchestrationView {
  id: string;
  name: string;
  /** `Pending`, `Running`, `Completed`, `Failed`, `Terminated`, ... as Durable reports it. */
  runtimeStatus: string;
  /** The orchestrator's return value; only when `Completed`. */
  output?: unknown;
  /** Why it failed; only when `Failed`. */
  failure?: string;
  /**
   * How far it got, as the orchestrator last reported it (its custom status, e.g.
   * `{"archived": 1000}` or `{"step": "copy"}`); absent before its first report.
   */
  progress?: unknown;
}

/** The fields of a `durable-functions` `DurableOrchestrationStatus` that the view uses. */
export interface DurableStatusFields {
  instanceId: string;
  name: string;
  runtimeStatus: string;
  output: unknown;
  customStatus?: unknown;
}

/** What `DurableClient` offers for reading one instance's status. */
export interface OrchestrationStatusSource {
  getStatus(
    instanceId: string,
    options: { showHistory: boolean; showHistoryOutput: boolean; showInput: boolean },
  ): Promise<DurableStatusFields>;
}

/**
 * Instance ids as the starters get them from Durable: a GUID without dashes, 32 lowercase hex
 * digits (the extension's default, and the local runtime's).
 */
const INSTANCE_ID = /^[0-9a-f]{32}$/;

/** True for text in the form of an instance id the starters hand out. */
export function isOrchestrationId(text: string): boolean {
  return INSTANCE_ID.test(text);
}

/**
 * The reason of a failed instance. Durable sets a failed instance's output to
 * `Orchestrator function '<name>' failed: <message>`; the message of a plain `Error` reads
 * `Error: <text>`. Both wrappers are removed; any other output is kept as text.
 */
export function failureReason(output: unknown): string {
  let text: string;
  if (typeof output === 'string') {
    text = output;
  } else if (
    typeof output === 'object' &&
    output !== null &&
    typeof (output as { message?: unknown }).message === 'string'
  ) {
    text = (output as { message: string }).message;
  } else if (output === null || output === undefined) {
    text = '';
  } else {
    text = JSON.stringify(output);
  }
  const reason = text
    .replace(/^Orchestrator function '[^']*' failed: /, '')
    .replace(/^Error: /, '')
    .trim();
  return reason === '' ? 'The orchestration failed without a reason.' : reason;
}

const ENDED = new Set(['Completed', 'Failed', 'Terminated', 'Canceled']);

/** True once an instance will not change any more (a client can stop polling). */
export function hasEnded(view: OrchestrationView): boolean {
  return ENDED.has(view.runtimeStatus);
}

/** Maps a Durable status to the view: output only when Completed, failure only when Failed. */
export function orchestrationView(status: DurableStatusFields): OrchestrationView {
  const view: OrchestrationView = {
    id: status.instanceId,
    name: status.name,
    runtimeStatus: status.runtimeStatus,
  };
  if (status.runtimeStatus === 'Completed') view.output = status.output ?? null;
  if (status.runtimeStatus === 'Failed') view.failure = failureReason(status.output);
  if (
    status.customStatus !== undefined &&
    status.customStatus !== null &&
    status.customStatus !== ''
  )
    view.progress = status.customStatus;
  return view;
}

/**
 * True for the error `DurableClient.getStatus` throws when the extension answers 404 (no such
 * instance in the task hub). The library reports it only through its message.
 */
export function isInstanceNotFound(error: unknown): boolean {
  return error instanceof Error && /\bHTTP 404\b/.test(error.message);
}

/**
 * True for the errors `DurableClient` throws when the extension answers with a server error (its
 * storage throttled or unreachable): a passing condition, not a bug. The library reports the
 * status only through its message.
 */
export function isExtensionUnavailable(error: unknown): boolean {
  return error instanceof Error && /(unexpected status code: |HTTP )5\d\d\b/.test(error.message);
}

/**
 * Reads one instance's status (without history or input) and maps it to the view.
 *
 * @throws {NotFoundError} `OrchestrationNotFound` when the task hub has no instance `id`.
 * @throws {UnavailableError} when the Durable extension answers with a server error (503, retry).
 * @throws {Error} whatever else the durable client throws.
 */
export async function readOrchestration(
  source: OrchestrationStatusSource,
  id: string,
): Promise<OrchestrationView> {
  let status: DurableStatusFields;
  try {
    status = await source.getStatus(id, {
      showHistory: false,
      showHistoryOutput: false,
      showInput: false,
    });
  } catch (error) {
    if (isInstanceNotFound(error)) {
      throw orchestrationNotFound(id, error);
    }
    if (isExtensionUnavailable(error)) {
      throw orchestrationStatusUnavailable(error);
    }
    throw error;
  }
  return orchestrationView(status);
}
