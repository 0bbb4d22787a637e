/**
 * The console's only ways out: the directory API (same origin, `/api/...`), and storage read
 * directly with the SAS URLs the API hands out (the valet key): a table partition over the OData
 * JSON API, a photo blob, and the logs container's listing and blobs.
 */
import { decodeLogLine, type LogLine } from '../src/logs/format/lineFormat';
import { parseInvertedTicksRowKey } from '../src/storage/keys/time';

/** Who the console acts for. */
export interface Session {
  /** The `x-ms-client-principal` value of a developer sign-in; none in Azure (the platform adds it). */
  principal?: string;
  /** A function key, needed in Azure by routes with authLevel "function" (docs/console.md). */
  functionKey?: string;
}

/** One invalid input field as the API names it (`body.firstName`) and what is wrong with it. */
export interface InputProblem {
  field: string;
  problem: string;
}

/** An error with a sentence a person can read. */
export class ConsoleError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
    /** Every invalid field of a 400, as the API listed them. */
    readonly problems: readonly InputProblem[] = [],
  ) {
    super(message);
  }
}

/** The API base: the console lives at `<base>/console/`. */
export const API_BASE = new URL('..', document.baseURI).pathname.replace(/\/$/, '');

/** Makes sure a message reads as a sentence. */
function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** Calls the API; an API error becomes its message, as a sentence. */
async function call(
  session: Session,
  method: string,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<{ parsed: unknown; response: Response }> {
  const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
  if (session.principal) headers['x-ms-client-principal'] = session.principal;
  if (session.functionKey) headers['x-functions-key'] = session.functionKey;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ConsoleError('The API cannot be reached. Check that the app is running.');
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const error = (
      parsed as
        | {
            error?: {
              code?: string;
              message?: string;
              target?: string;
              details?: InputProblem[];
            };
          }
        | undefined
    )?.error;
    if (error?.message) {
      const problems = Array.isArray(error.details)
        ? error.details
        : error.target
          ? [{ field: error.target, problem: '' }]
          : [];
      throw new ConsoleError(sentence(error.message), response.status, error.code, problems);
    }
    throw new ConsoleError(
      `The API answered ${response.status} ${response.statusText || ''}`.trim() + '.',
      response.status,
    );
  }
  return { parsed, response };
}

/** Calls the API and returns its JSON; an API error becomes its message, as a sentence. */
export async function api<T>(
  session: Session,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  return (await call(session, method, path, body)).parsed as T;
}

/**
 * Calls the API and returns its JSON with the `ETag` it answered; `ifMatch` makes a write
 * conditional on the version the page showed (412 when someone changed it meanwhile).
 */
export async function apiVersioned<T>(
  session: Session,
  method: string,
  path: string,
  body?: unknown,
  ifMatch?: string,
): Promise<{ value: T; etag: string | undefined }> {
  const { parsed, response } = await call(
    session,
    method,
    path,
    body,
    ifMatch ? { 'if-match': ifMatch } : {},
  );
  return { value: parsed as T, etag: response.headers.get('etag') ?? undefined };
}

/** What `POST /sas/...` returns. */
export interface SasGrant {
  url: string;
  sas: string;
  expiresOn: string;
  permissions: string;
  table?: string;
  partitionKey?: string;
  container?: string;
  /** The blob a photo write SAS is for (adopt it with `PUT .../photo` `{"blobName"}`). */
  blobName?: string;
  /** `POST /sas/logs` with data over several accounts: every account's logs container. */
  accounts?: { account: string; url: string; sas: string }[];
}

/** A storage error as a sentence (table OData JSON or blob XML bodies). */
async function storageError(what: string, response: Response): Promise<ConsoleError> {
  const text = await response.text().catch(() => '');
  let detail: string;
  try {
    const body = JSON.parse(text) as { 'odata.error'?: { message?: { value?: string } } };
    detail = body['odata.error']?.message?.value ?? '';
  } catch {
    detail = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? '';
  }
  const first = detail.split('\n')[0]?.trim();
  return new ConsoleError(
    `${what} answered ${response.status}${first ? `: ${sentence(first)}` : '.'}`,
    response.status,
  );
}

/** One expense claim as read from the table. */
export interface ExpenseRow {
  claimId: string;
  submittedAt: string;
  amount: number;
  currency: string;
  description: string;
}

/** Where a table query resumes (storage's continuation headers). */
export interface TableContinuation {
  nextPartitionKey: string;
  nextRowKey: string;
}

/** The URL a table query with this grant goes to (the table endpoint, never the API). */
export function expensesQueryUrl(grant: SasGrant, top: number, after?: TableContinuation): string {
  const filter = `PartitionKey eq '${grant.partitionKey!.replace(/'/g, "''")}'`;
  const query = new URLSearchParams({ $filter: filter, $top: String(top) });
  if (after) {
    query.set('NextPartitionKey', after.nextPartitionKey);
    query.set('NextRowKey', after.nextRowKey);
  }
  return `${grant.url.replace(/\/$/, '')}/${grant.table}()?${query.toString()}&${grant.sas}`;
}

/**
 * The newest `top` claims (after `after`, for the next page), straight from the table endpoint
 * with the expenses SAS (log tail: the RowKey is inverted ticks, so the first rows of the
 * partition are the newest), and where the next page starts, if there is one.
 */
export async function readExpenses(
  grant: SasGrant,
  top: number,
  after?: TableContinuation,
): Promise<{ rows: ExpenseRow[]; next?: TableContinuation }> {
  const response = await fetch(expensesQueryUrl(grant, top, after), {
    headers: {
      accept: 'application/json;odata=nometadata',
      'x-ms-version': '2019-02-02',
      dataserviceversion: '3.0',
      maxdataserviceversion: '3.0;NetFx',
    },
    credentials: 'omit',
  });
  if (!response.ok) throw await storageError('The table endpoint', response);
  const body = (await response.json()) as { value: Record<string, unknown>[] };
  const rows = body.value.slice(0, top).map((entity) => {
    const rowKey = String(entity.RowKey);
    return {
      claimId: rowKey,
      submittedAt: parseInvertedTicksRowKey(rowKey)?.at.toISOString() ?? '',
      amount: Number(entity.Amount),
      currency: String(entity.Currency ?? ''),
      description: String(entity.Description ?? ''),
    };
  });
  const nextPartitionKey = response.headers.get('x-ms-continuation-NextPartitionKey');
  const nextRowKey = response.headers.get('x-ms-continuation-NextRowKey');
  return {
    rows,
    ...(nextPartitionKey && nextRowKey ? { next: { nextPartitionKey, nextRowKey } } : {}),
  };
}

/** The logs container URL and SAS of a grant. */
function containerParts(grant: Pick<SasGrant, 'url' | 'sas'>): {
  container: string;
  sas: string;
} {
  const url = new URL(grant.url);
  url.search = '';
  return { container: url.toString().replace(/\/$/, ''), sas: grant.sas };
}

/** The `<source>/YYYY/MM/DD/hh00/` prefix of an hour (Storage Analytics layout). */
export function hourPrefix(source: string, hour: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${source}/${hour.getUTCFullYear()}/${pad(hour.getUTCMonth() + 1)}/${pad(hour.getUTCDate())}/${pad(hour.getUTCHours())}00/`;
}

/** A log window: the lines of one hour of one source, read from blob storage with the logs SAS. */
export async function readLogHour(
  grant: SasGrant,
  source: string,
  hour: Date,
): Promise<{ blobs: string[]; lines: LogLine[] }> {
  // With data over several accounts each holds some of the hour's blobs: read them all.
  const containers = grant.accounts?.length ? grant.accounts : [grant];
  const read = await Promise.all(
    containers.map(({ url, sas }) => readAccountLogHour({ url, sas }, source, hour)),
  );
  const lines = read.flatMap((r) => r.lines);
  lines.sort((a, b) => a.entry.at.getTime() - b.entry.at.getTime());
  return { blobs: read.flatMap((r) => r.blobs), lines };
}

/** The hour's blobs and lines in one account's logs container. */
async function readAccountLogHour(
  grant: Pick<SasGrant, 'url' | 'sas'>,
  source: string,
  hour: Date,
): Promise<{ blobs: string[]; lines: LogLine[] }> {
  const { container, sas } = containerParts(grant);
  const prefix = hourPrefix(source, hour);
  const listUrl = `${container}?restype=container&comp=list&prefix=${encodeURIComponent(prefix)}&${sas}`;
  const listed = await fetch(listUrl, { credentials: 'omit' });
  // No container (an account no hour was flushed to, in an app older than the API's creating it
  // with the grant): no lines there, not a window that cannot be read.
  if (listed.status === 404) return { blobs: [], lines: [] };
  if (!listed.ok) throw await storageError('The blob endpoint', listed);
  const xml = new DOMParser().parseFromString(await listed.text(), 'application/xml');
  const blobs = [...xml.querySelectorAll('Blob > Name')]
    .map((node) => node.textContent ?? '')
    .filter((name) => /\/\d{6}\.log$/.test(name))
    .sort();
  const lines: LogLine[] = [];
  for (const name of blobs) {
    const path = name.split('/').map(encodeURIComponent).join('/');
    const blob = await fetch(`${container}/${path}?${sas}`, { credentials: 'omit' });
    if (!blob.ok) throw await storageError('The blob endpoint', blob);
    for (const line of (await blob.text()).split('\n')) {
      if (line === '') continue;
      try {
        lines.push(decodeLogLine(line));
      } catch {
        // A line in another format version: shown by the API's own query, skipped here.
      }
    }
  }
  return { blobs, lines };
}

/**
 * PUTs `body` to `url` (the API, or storage with a write SAS) and reports the bytes sent as they
 * go: `fetch` cannot report upload progress, XMLHttpRequest can.
 */
export function putWithProgress(
  url: string,
  body: Blob,
  headers: Record<string, string>,
  onProgress: (sent: number, total: number) => void,
  withCredentials = false,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    request.withCredentials = withCredentials;
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    });
    request.addEventListener('load', () =>
      resolve({ status: request.status, text: request.responseText }),
    );
    request.addEventListener('error', () =>
      reject(new ConsoleError('The upload could not reach storage. Check the connection.')),
    );
    request.send(body);
  });
}

/** Uploads through a write SAS: one Put Blob, as docs/sas.md asks (no blocks). */
export async function uploadToSas(
  grant: SasGrant,
  file: Blob,
  onProgress: (sent: number, total: number) => void,
): Promise<void> {
  const result = await putWithProgress(
    grant.url,
    file,
    { 'x-ms-blob-type': 'BlockBlob', 'content-type': file.type || 'application/octet-stream' },
    onProgress,
  );
  if (result.status !== 201) {
    const detail = /<Message>([^<]*)<\/Message>/.exec(result.text)?.[1]?.split('\n')[0]?.trim();
    throw new ConsoleError(
      `Storage refused the upload (${result.status})${detail ? `: ${sentence(detail)}` : '.'}`,
      result.status,
    );
  }
}

/** What `GET /orchestrations/{id}` answers. */
export interface OrchestrationStatus {
  id: string;
  name: string;
  runtimeStatus: string;
  output?: unknown;
  failure?: string;
  progress?: unknown;
}

const ENDED = new Set(['Completed', 'Failed', 'Terminated', 'Canceled']);

/**
 * Polls `GET /orchestrations/{id}` every `intervalMs` until the instance ends (or `stillWanted`
 * says nobody looks any more), reporting each status.
 */
export async function followOrchestration(
  session: Session,
  id: string,
  onStatus: (status: OrchestrationStatus) => void,
  stillWanted: () => boolean,
  intervalMs = 1_000,
): Promise<OrchestrationStatus | undefined> {
  for (;;) {
    const status = await api<OrchestrationStatus>(
      session,
      'GET',
      `/orchestrations/${encodeURIComponent(id)}`,
    );
    onStatus(status);
    if (ENDED.has(status.runtimeStatus)) return status;
    if (!stillWanted()) return undefined;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
