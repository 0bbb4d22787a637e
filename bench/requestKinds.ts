/**
 * Where the storage requests of index maintenance go: a pipeline policy on the `Employees` and
 * `EmployeeIndex` table clients that sorts every request by what it does (the create's
 * transaction, an outbox read, a lease write, a member-list write …), from its method, its URL and
 * the partitions its batch names. Queue traffic is counted by the proxy (`queue:POST` = send,
 * `queue:GET` = receive, `queue:DELETE` = delete) and merged in by the caller.
 */
import type { PipelinePolicy, PipelineRequest } from '@azure/core-rest-pipeline';

/** Requests by kind, counted by {@link requestKindCounter}'s policy. */
export interface RequestKinds {
  policy: PipelinePolicy;
  counts: Map<string, number>;
  reset(): void;
}

/** The PartitionKeys a request names, in its URL, filter or batch body. */
function partitionsOf(request: PipelineRequest): string[] {
  const text = `${decodeURIComponent(request.url)}\n${typeof request.body === 'string' ? request.body : ''}`;
  const found = new Set<string>();
  for (const match of text.matchAll(/PartitionKey(?:='|\s+eq\s+'|":")([^'"]*)/g)) {
    found.add(match[1]!);
  }
  return [...found];
}

/** What one table request does. */
export function classifyTableRequest(
  request: PipelineRequest,
  table: 'employees' | 'index',
): string {
  const url = decodeURIComponent(request.url);
  const partitions = partitionsOf(request);
  const names = (p: string): boolean => partitions.some((partition) => partition.startsWith(p));
  const body = typeof request.body === 'string' ? request.body : '';
  if (url.includes('/Tables')) return 'table create';
  if (names('~drain_')) return request.method === 'GET' ? 'lease read' : 'lease write';
  if (table === 'index') {
    if (request.method === 'GET') {
      if (names('lastname_') || names('lastnames_')) return 'member list read';
      return 'index entries/fence read';
    }
    if (names('lastname_') || names('lastnames_')) return 'member list write';
    if (names('email_')) return 'by-email EGT';
    if (names('empid_')) return 'by-id EGT';
    return `index ${request.method}`;
  }
  if (request.method === 'GET') {
    if (url.includes('outbox_')) return 'outbox read';
    if (/RowKey eq 'email_|RowKey eq 'empid_/.test(url)) return 'sources / entity reads';
    return 'other Employees read';
  }
  if (url.includes('$batch')) {
    const operations = body.match(/^(GET|POST|PUT|PATCH|MERGE|DELETE) /gm) ?? [];
    if (operations.length > 0 && operations.every((op) => op.startsWith('DELETE'))) {
      return 'outbox row delete';
    }
    return 'create EGT';
  }
  return `Employees ${request.method}`;
}

/** A counter of table requests by kind (add its policy to each table client). */
export function requestKindCounter(table: 'employees' | 'index'): RequestKinds {
  const counts = new Map<string, number>();
  return {
    counts,
    reset: () => counts.clear(),
    policy: {
      name: `benchRequestKinds-${table}`,
      sendRequest: async (request, next) => {
        const kind = classifyTableRequest(request, table);
        counts.set(kind, (counts.get(kind) ?? 0) + 1);
        return next(request);
      },
    },
  };
}

/** `kind n.nn, …` per operation, largest first. */
export function perOperation(counts: Iterable<[string, number]>, operations: number): string {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${kind} ${(n / operations).toFixed(2)}`)
    .join(', ');
}
