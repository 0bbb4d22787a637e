/**
 * Setting the `If-Match` header of chosen operations inside the multipart body of an entity group
 * transaction (`POST .../$batch`), as the Table service's batch format defines it: each changeset
 * part is a boundary line, its MIME headers, an empty line, then an HTTP request line
 * (`DELETE <url>(PartitionKey='…',RowKey='…') HTTP/1.1`), its headers, an empty line and a body.
 *
 * Pure string work: no I/O, no SDK state.
 */
import {
  ambiguousCondition,
  conditionWithoutOperation,
  duplicateCondition,
  etagWithLineBreak,
} from '../storageErrors';

/** The keys of one entity. */
export interface EntityKeys {
  partitionKey: string;
  rowKey: string;
}

/** The ETag that the operation on one entity must match. */
export interface EntityCondition extends EntityKeys {
  etag: string;
}

const LINE_ENDING = '\r\n';
const CHANGESET_BOUNDARY_PREFIX = '--changeset_';
const REQUEST_LINE = /^([A-Z]+) (\S+) HTTP\/1\.1$/;
/** The key predicate at the end of an entity's URL path; quotes inside a key are doubled. */
const KEY_PREDICATE = /\(PartitionKey='((?:[^']|'')*)',RowKey='((?:[^']|'')*)'\)$/;
/** Methods of the changeset operations that address an existing entity by its keys. */
const CONDITIONAL_METHODS = new Set(['DELETE', 'PUT', 'PATCH', 'MERGE']);

function keyOf(keys: EntityKeys): string {
  return `${keys.partitionKey}\u0000${keys.rowKey}`;
}

/** The entity keys an operation URL addresses, or `undefined` when it names none (an insert). */
export function entityKeysOfUrl(url: string): EntityKeys | undefined {
  const path = url.split('?')[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  const match = KEY_PREDICATE.exec(decoded);
  if (!match) return undefined;
  return {
    partitionKey: match[1]!.replaceAll("''", "'"),
    rowKey: match[2]!.replaceAll("''", "'"),
  };
}

/**
 * The batch body with `If-Match: <etag>` on the operation that addresses each conditioned entity
 * (replacing the `If-Match: *` the SDK writes for a delete, or adding the header).
 *
 * @throws {Error} when an ETag holds a line break, two conditions name one entity, or a condition
 *   names an entity that no delete or update of the body addresses (or that several do): the
 *   request must not be sent without the condition the caller asked for.
 */
export function withIfMatch(body: string, conditions: readonly EntityCondition[]): string {
  const wanted = conditionsByEntity(conditions);
  if (wanted.size === 0) return body;
  return applyEdits(body, ifMatchEdits(body, wanted));
}

/** An edit of the body: `body.slice(from, to)` replaced with `text`. */
interface Edit {
  from: number;
  to: number;
  text: string;
}

/**
 * The conditions by entity key.
 *
 * @throws {Error} when an ETag holds a line break or two conditions name one entity.
 */
function conditionsByEntity(conditions: readonly EntityCondition[]): Map<string, EntityCondition> {
  const wanted = new Map<string, EntityCondition>();
  for (const condition of conditions) {
    if (/[\r\n]/.test(condition.etag)) {
      throw etagWithLineBreak(condition.etag);
    }
    const key = keyOf(condition);
    if (wanted.has(key)) {
      throw duplicateCondition(condition.partitionKey, condition.rowKey);
    }
    wanted.set(key, condition);
  }
  return wanted;
}

/**
 * The edits that put each wanted condition on the operation addressing its entity, in body order.
 * Walks the body line by line by offsets, without splitting it: a chunk's body holds ~1,000
 * lines, and only its few conditioned operations change.
 *
 * @throws {Error} when a condition names an entity that no delete or update addresses, or that
 *   several do.
 */
function ifMatchEdits(body: string, wanted: ReadonlyMap<string, EntityCondition>): Edit[] {
  const applied = new Set<string>();
  type State = 'outside' | 'partHeaders' | 'requestLine' | 'requestHeaders';
  let state: State = 'outside';
  let condition: EntityCondition | undefined;
  let ifMatchWritten = false;
  let requestLineEnd = -1;
  const edits: Edit[] = [];

  for (let start = 0; start <= body.length;) {
    const found = body.indexOf(LINE_ENDING, start);
    const end = found === -1 ? body.length : found;
    const empty = end === start;
    switch (state) {
      case 'outside':
        if (
          body.startsWith(CHANGESET_BOUNDARY_PREFIX, start) &&
          !body.slice(start, end).endsWith('--')
        ) {
          state = 'partHeaders';
        }
        break;
      case 'partHeaders':
        if (empty) state = 'requestLine';
        break;
      case 'requestLine':
        condition = conditionOfRequestLine(body.slice(start, end), wanted, applied);
        ifMatchWritten = false;
        requestLineEnd = end;
        state = 'requestHeaders';
        break;
      case 'requestHeaders':
        if (empty) {
          if (condition && !ifMatchWritten) {
            const text = `${LINE_ENDING}If-Match: ${condition.etag}`;
            edits.push({ from: requestLineEnd, to: requestLineEnd, text });
          }
          condition = undefined;
          state = 'outside';
        } else if (condition && /^if-match\s*:/i.test(body.slice(start, end))) {
          edits.push({ from: start, to: end, text: `If-Match: ${condition.etag}` });
          ifMatchWritten = true;
        }
        break;
    }
    if (found === -1) break;
    start = found + LINE_ENDING.length;
  }
  for (const [key, missing] of wanted) {
    if (!applied.has(key)) {
      throw conditionWithoutOperation(missing.partitionKey, missing.rowKey);
    }
  }
  return edits;
}

/**
 * The wanted condition on the entity an operation's request line addresses (a delete or update),
 * marked applied.
 *
 * @throws {Error} when an earlier operation of the body already took that condition.
 */
function conditionOfRequestLine(
  line: string,
  wanted: ReadonlyMap<string, EntityCondition>,
  applied: Set<string>,
): EntityCondition | undefined {
  const [, method = '', url = ''] = REQUEST_LINE.exec(line) ?? [];
  const keys = CONDITIONAL_METHODS.has(method) ? entityKeysOfUrl(url) : undefined;
  const condition = keys && wanted.get(keyOf(keys));
  if (condition) {
    const key = keyOf(condition);
    if (applied.has(key)) {
      throw ambiguousCondition(condition.partitionKey, condition.rowKey);
    }
    applied.add(key);
  }
  return condition;
}

/** The body with the edits (in body order) spliced in. */
function applyEdits(body: string, edits: readonly Edit[]): string {
  // A part gets an inserted header only if none was replaced, so the edits never overlap.
  let output = '';
  let copied = 0;
  for (const edit of edits) {
    output += body.slice(copied, edit.from) + edit.text;
    copied = edit.to;
  }
  return output + body.slice(copied);
}
