/**
 * What a client may see of an orchestration instance (API.md "Orchestrations"): its id, name,
 * runtime status, the output once it completed, and the reason once it failed. Nothing of the
 * Durable Functions management API (URLs, keys, input, history) leaves through here.
 */
import {
  orchestrationNotFound,
  orchestrationStartUnavailable,
  orchestrationStatusUnavailable,
} from './orchestrationErrors';

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

/** The longest `failure` a client gets (a reason is a sentence, not a payload). */
const MAX_FAILURE_LENGTH = 500;

/** Durable's wrapper around a failed orchestration's reason (nested for sub-orchestrations). */
const ORCHESTRATOR_WRAPPER = /^Orchestrator function '[^']*' failed:\s*/;
/** The extension's wrapper around a failed activity's message; the activity's name is kept. */
const ACTIVITY_WRAPPER = /^(Activity function '[^']*' failed:)\s*/;
/**
 * A leading type name: the plain `Error` of JavaScript, or a dotted .NET one (`System.Exception`).
 */
const TYPE_PREFIX = /^(?:Error|(?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*):\s+/;
/** A dotted .NET exception type name anywhere, e.g. `Microsoft.Azure.….RpcException`. */
const DOTNET_EXCEPTION_NAME = /\b(?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*(?:Exception|Error)\b:?\s*/g;
/** The Functions host's text of a worker error: only the exception's message is kept. */
const RPC_EXCEPTION_TEXT = /Result: \w+\r?\nException:([^\r\n]*)(?:\r?\nStack:[\s\S]*)?/;

/**
 * The reason of a failed instance, as one plain line. Whatever shape the Durable runtime gives:
 * - `Orchestrator function '<name>' failed: <message>` (the extension's output; the wrapper goes);
 * - an uncaught activity failure, which durable-functions makes `<Reason> \n <Details>` where
 *   Details is a serialised .NET exception (`$type`, the host's `Result: Failure\nException: …
 *   \nStack: …` text): only the reason's line stays,
 *   `Activity function '<name>' failed: <message>`;
 * - FailureDetails (`<ErrorType>: <message>`) and a plain `Error`'s `Error: ` prefix: the type
 *   goes;
 * - an object (`message`, `Message`, `ErrorMessage`) or a serialised exception's JSON: its message.
 * No `$type`, stack line or .NET type name is left; the line is cut at 500 characters.
 */
export function failureReason(output: unknown): string {
  const reason = plainLine(failureText(output));
  return reason === '' ? 'The orchestration failed without a reason.' : reason;
}

/** The message of a failure value, or its JSON text without `$` properties. */
function failureText(output: unknown): string {
  if (typeof output === 'string') {
    const trimmed = output.trim();
    if (!trimmed.startsWith('{')) return output;
    try {
      return failureText(JSON.parse(trimmed) as unknown);
    } catch {
      return output;
    }
  }
  if (output === null || output === undefined) return '';
  if (typeof output === 'object') {
    const record = output as Record<string, unknown>;
    for (const key of ['message', 'Message', 'ErrorMessage', 'errorMessage', 'Reason', 'reason']) {
      if (typeof record[key] === 'string') return record[key];
    }
    return JSON.stringify(output, (key, value: unknown) =>
      key.startsWith('$') ? undefined : value,
    );
  }
  return JSON.stringify(output);
}

function plainLine(text: string): string {
  const firstLine =
    text
      .replace(RPC_EXCEPTION_TEXT, '$1')
      .split(/\r?\n|\r/)
      .map((line) => line.trim())
      .find((line) => line !== '') ?? '';
  // Details glued to the reason on one line: a serialised exception starts with {"$type".
  const glued = firstLine.search(/\{\s*"\$type"/);
  let line = glued >= 0 ? firstLine.slice(0, glued) : firstLine;
  let previous: string;
  do {
    previous = line;
    line = line.replace(ORCHESTRATOR_WRAPPER, '').replace(TYPE_PREFIX, '').trim();
  } while (line !== previous);
  const activity = ACTIVITY_WRAPPER.exec(line);
  if (activity) {
    let message = line.slice(activity[0].length);
    do {
      previous = message;
      message = message.replace(TYPE_PREFIX, '').trim();
    } while (message !== previous);
    line = `${activity[1]} ${message}`;
  }
  line = line.replace(DOTNET_EXCEPTION_NAME, '').replace(/\s+/g, ' ').trim();
  return line.length > MAX_FAILURE_LENGTH ? `${line.slice(0, MAX_FAILURE_LENGTH - 1)}…` : line;
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

/** What `DurableClient` offers for starting an instance. */
export interface OrchestrationStarter {
  startNew(name: string, options: { instanceId?: string; input?: unknown }): Promise<string>;
}

/**
 * Starts an instance of orchestration `name` and returns its id. The extension answers a start
 * with a server error while its storage is throttled: a passing condition, answered 503.
 *
 * @throws {UnavailableError} when the Durable extension answers with a server error.
 * @throws {Error} whatever else the durable client throws.
 */
export async function startInstance(
  starter: OrchestrationStarter,
  name: string,
  options: { instanceId?: string; input?: unknown },
): Promise<string> {
  try {
    return await starter.startNew(name, options);
  } catch (error) {
    if (isExtensionUnavailable(error)) throw orchestrationStartUnavailable(error);
    throw error;
  }
}
