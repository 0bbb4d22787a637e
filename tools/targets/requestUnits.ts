/**
 * What one storage request costs against each target it counts toward (pure): the account always;
 * a table operation its partition's entities (a batch: one per operation, all in one partition);
 * a queue's messages; a blob's requests. Path-style URLs, as the emulator takes them:
 * `/<account>/<table, queue or container>/...`.
 */
import type { StorageService } from '../faultProxy/faultPlan';

/** The scopes a request counts toward and how much. */
export interface RequestUnits {
  account: string;
  /** `<table>/<partition key>` and its entities written or read by key. */
  partition?: { key: string; entities: number };
  queue?: { key: string; messages: number };
  blob?: { key: string };
}

/**
 * The units of a request. `body` is the request's body for table POSTs (an insert or a batch,
 * whose partition is only in the body); other requests are told apart by their URL.
 */
export function requestUnits(
  service: StorageService,
  method: string,
  url: string,
  body?: string,
): RequestUnits {
  const parsed = new URL(url, 'http://front');
  const segments = parsed.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const account = segments[0] ?? '';
  switch (service) {
    case 'table':
      return { account, ...tableUnits(segments[1] ?? '', parsed, method, body) };
    case 'queue': {
      if (segments.length < 3 || segments[2] !== 'messages') return { account };
      const wanted = Number(parsed.searchParams.get('numofmessages') ?? '1');
      const messages = method === 'GET' && Number.isInteger(wanted) && wanted > 0 ? wanted : 1;
      return { account, queue: { key: segments[1]!, messages } };
    }
    case 'blob':
      if (segments.length < 3) return { account };
      return { account, blob: { key: segments.slice(1).join('/') } };
  }
}

function tableUnits(
  resource: string,
  url: URL,
  method: string,
  body: string | undefined,
): Pick<RequestUnits, 'partition'> {
  if (resource === '$batch') {
    const operations = (body ?? '').match(
      /^(GET|POST|PUT|MERGE|PATCH|DELETE) \S+ HTTP\/1\.1\r?$/gm,
    );
    const head = operations?.[0]?.split(' ')[1];
    const table = head ? /\/([^/(]+)(\(|$)/.exec(new URL(head).pathname)?.[1] : undefined;
    const key = partitionIn(body ?? '');
    if (!table || key === undefined) return {};
    return { partition: { key: `${table}/${key}`, entities: operations!.length } };
  }
  const table = /^([^(]+)/.exec(resource)?.[1];
  if (!table || table === 'Tables') return {};
  const inUrl = /PartitionKey='((?:[^']|'')*)'/.exec(resource)?.[1];
  const filter = url.searchParams.get('$filter') ?? '';
  const inFilter = /^\(?PartitionKey eq '((?:[^']|'')*)'/.exec(filter)?.[1];
  const key =
    inUrl !== undefined
      ? inUrl.replace(/''/g, "'")
      : inFilter !== undefined
        ? inFilter.replace(/''/g, "'")
        : method === 'POST'
          ? partitionIn(body ?? '')
          : undefined;
  if (key === undefined) return {};
  return { partition: { key: `${table}/${key}`, entities: 1 } };
}

/** The first partition key a table body names (JSON entity or a sub-request's URL). */
function partitionIn(body: string): string | undefined {
  const json = /"PartitionKey"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(body)?.[1];
  if (json !== undefined) return JSON.parse(`"${json}"`) as string;
  const url = /PartitionKey='((?:[^']|'')*)'/.exec(body)?.[1];
  return url === undefined ? undefined : decodeURIComponent(url).replace(/''/g, "'");
}
