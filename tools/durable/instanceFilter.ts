/**
 * The instance query of the Durable HTTP API's list and purge-by-filter routes (http/httpApi.ts):
 * `runtimeStatus`, `createdTimeFrom`, `createdTimeTo` and `instanceIdPrefix` as an OData filter of
 * the task hub's Instances table.
 */
import { odata } from '@azure/data-tables';
import { dateParam, HttpProblem } from './http/httpMessages';
import { TERMINAL_STATUSES, type RuntimeStatus } from './store/records';

const KNOWN_STATUSES: readonly string[] = [
  'Pending',
  'Running',
  'Completed',
  'Failed',
  'Terminated',
];
const UNSTORED_STATUSES: readonly string[] = ['ContinuedAsNew', 'Canceled', 'Suspended'];

/**
 * The odata filter of the list / purge-by-filter query parameters.
 *
 * @throws {HttpProblem} 400 for an unknown `runtimeStatus` or a malformed date.
 */
export function instanceFilter(url: URL, onlyEnded: boolean): string | undefined {
  const parts: string[] = [];
  const statusParam = url.searchParams.get('runtimeStatus');
  let statuses = statusParam
    ? statusParam
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
    : [];
  const unknown = statuses.filter(
    (s) => !KNOWN_STATUSES.includes(s) && !UNSTORED_STATUSES.includes(s),
  );
  if (unknown.length > 0) {
    throw new HttpProblem(
      400,
      'InvalidRuntimeStatus',
      `Unknown runtimeStatus value(s): ${unknown.join(', ')}.`,
    );
  }
  statuses = statuses.filter((s) => KNOWN_STATUSES.includes(s));
  // Only statuses no stored instance has were asked for: match nothing.
  if (statusParam && statuses.length === 0) statuses = ['None'];
  if (onlyEnded) {
    statuses = (statuses.length > 0 ? statuses : [...TERMINAL_STATUSES]).filter((s) =>
      TERMINAL_STATUSES.has(s as RuntimeStatus),
    );
    if (statuses.length === 0) statuses = ['None'];
  }
  if (statuses.length > 0) {
    parts.push(`(${statuses.map((s) => odata`RuntimeStatus eq ${s}`).join(' or ')})`);
  }
  const from = dateParam(url, 'createdTimeFrom');
  const to = dateParam(url, 'createdTimeTo');
  if (from) parts.push(odata`CreatedTime ge ${from}`);
  if (to) parts.push(odata`CreatedTime le ${to}`);
  const prefix = url.searchParams.get('instanceIdPrefix');
  if (prefix) {
    const upper =
      prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
    parts.push(odata`PartitionKey ge ${prefix} and PartitionKey lt ${upper}`);
  }
  return parts.length > 0 ? parts.join(' and ') : undefined;
}
