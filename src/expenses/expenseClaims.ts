/**
 * Expense claims as a log tail: every claim of one employee lives in that employee's partition
 * with an inverted-ticks RowKey (`MAX_TICKS - ticks`, 19 digits, then a random suffix), so the
 * partition's natural ascending order is newest first and "the latest n claims" is one query with
 * `$top=n` — the service has no "last n" operation.
 *
 * Claims do not require the employee to exist in the directory: they are high-volume side data
 * keyed by department and employee id, whose format alone is checked.
 */
import { odata } from '@azure/data-tables';
import type { TableAccess } from '../storage/tables/tableAccess';
import type { EmployeeCheck } from '../directory';
import { wholeNumberOutOfRange } from '../domainErrors';
import { withStorageErrors } from '../storage/storageFaults';
import { invalidAmount, invalidCurrency, invalidDescription } from './expenseErrors';
import { decodeContinuationToken, encodeContinuationToken } from '../storage/keys/continuation';
import {
  employeePartitionKey,
  parseEmployeePartitionKey,
} from '../storage/keys/tables/employeePartitions';
import { invertedTicksRowKey, parseInvertedTicksRowKey } from '../storage/keys/time';
import { systemClock, type Clock } from '../time/clock';
import { assertStorableInstant } from '../time/instants';
import { ensureTable } from '../storage/createOnce';
import { readPartitionPage } from '../storage/tables/partitionPages';
import { insertTimeKeyed, keysOfType } from '../storage/tables/timeKeyedInsert';

/** Largest accepted claim amount (in the claim's currency). */
export const MAX_EXPENSE_AMOUNT = 1_000_000;
/** Longest accepted description, in characters. */
export const MAX_EXPENSE_DESCRIPTION_LENGTH = 1_000;
/** Most claims one `newest` call returns (one query page). */
export const MAX_EXPENSE_TOP = 1_000;
/** Claims returned when the caller does not say how many. */
const DEFAULT_EXPENSE_TOP = 10;
/** Claims per page of {@link ExpenseClaimLog.page} when no size is given. */
const DEFAULT_EXPENSE_PAGE_SIZE = 100;

const ENTITY_TYPE = 'ExpenseClaim.v1';

/** What a caller submits. */
export interface ExpenseClaimInput {
  /** Positive, at most two decimals, at most {@link MAX_EXPENSE_AMOUNT}. */
  amount: number;
  /** ISO 4217 code: three upper-case letters. */
  currency: string;
  description: string;
  /** When the expense was claimed; defaults to now. */
  submittedAt?: Date;
}

/** A stored claim. `submittedAt` is decoded from the RowKey, not stored twice. */
export interface ExpenseClaim {
  /** The RowKey: unique within the employee's claims, newest sorting first. */
  claimId: string;
  department: string;
  employeeId: string;
  amount: number;
  currency: string;
  description: string;
  submittedAt: Date;
}

/** A claim as stored in `EmployeeExpenses`. */
export type ExpenseClaimEntity = {
  partitionKey: string;
  rowKey: string;
  EntityType: string;
  /** Always typed `Edm.Double`, so a whole amount is not stored as `Int32`. */
  Amount: { value: number; type: 'Double' };
  Currency: string;
  Description: string;
};

/**
 * The stored form of a claim (also used by bulk loaders such as the benchmark): inverted-ticks
 * RowKey with `uniqueSuffix`; the amount always typed `Edm.Double`.
 */
export function expenseClaimEntity(
  partitionKey: string,
  submittedAt: Date,
  uniqueSuffix: string,
  input: Pick<ExpenseClaimInput, 'amount' | 'currency' | 'description'>,
): ExpenseClaimEntity {
  return {
    partitionKey,
    rowKey: invertedTicksRowKey(submittedAt, uniqueSuffix),
    EntityType: ENTITY_TYPE,
    Amount: { value: input.amount, type: 'Double' },
    Currency: input.currency,
    Description: input.description,
  };
}

/**
 * Checks a claim against the API's rules.
 *
 * @throws {ValidationError} naming the first bad field.
 */
export function assertValidClaim(input: ExpenseClaimInput): void {
  const { amount, currency, description } = input;
  if (
    !Number.isFinite(amount) ||
    amount <= 0 ||
    amount > MAX_EXPENSE_AMOUNT ||
    // JSON numbers print in their shortest round-trip form, so this sees the caller's digits.
    !/^\d+(\.\d{1,2})?$/.test(String(amount))
  ) {
    throw invalidAmount(MAX_EXPENSE_AMOUNT);
  }
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw invalidCurrency();
  }
  if (description.trim().length === 0 || description.length > MAX_EXPENSE_DESCRIPTION_LENGTH) {
    throw invalidDescription(MAX_EXPENSE_DESCRIPTION_LENGTH);
  }
  if (input.submittedAt !== undefined) assertStorableInstant(input.submittedAt, 'body.submittedAt');
}

/** Expense claims of every employee, newest first per employee. */
export class ExpenseClaimLog {
  /**
   * @param table - the `EmployeeExpenses` table (created on first use).
   * @param clock - supplies "now" for claims submitted without a time.
   * @param requireEmployee - tells an unknown employee (404) when a first page is empty; without
   *   it an empty page is simply empty.
   */
  constructor(
    private readonly table: TableAccess,
    private readonly clock: Clock = systemClock,
    private readonly requireEmployee?: EmployeeCheck,
  ) {}

  /**
   * Stores one claim.
   *
   * @throws {ValidationError} for an invalid department, employee id or claim.
   * @throws {DomainError} for storage faults that outlast the SDK's retries.
   */
  async submit(
    department: string,
    employeeId: string,
    input: ExpenseClaimInput,
  ): Promise<{ claim: ExpenseClaim; etag: string }> {
    const partitionKey = employeePartitionKey(department, employeeId);
    assertValidClaim(input);
    const submittedAt = input.submittedAt ?? this.clock();
    await ensureTable(this.table);
    const { entity, etag } = await insertTimeKeyed(this.table, (suffix) =>
      expenseClaimEntity(partitionKey, submittedAt, suffix, input),
    );
    return { claim: toClaim({ ...entity, Amount: input.amount })!, etag };
  }

  /**
   * The `top` newest claims of one employee, newest first: a single partition query with `$top`.
   * Only if the service ends a page early (it may, e.g. at its 5-second limit) is the continuation
   * followed for the rest.
   *
   * @throws {ValidationError} for an invalid department, employee id or `top` outside 1–1000.
   * @throws {NotFoundError} `EmployeeNotFound` when there is no claim and no such employee.
   * @throws {DomainError} for storage faults that outlast the SDK's retries.
   */
  async newest(
    department: string,
    employeeId: string,
    top = DEFAULT_EXPENSE_TOP,
  ): Promise<ExpenseClaim[]> {
    const partitionKey = employeePartitionKey(department, employeeId);
    if (!Number.isInteger(top) || top < 1 || top > MAX_EXPENSE_TOP) {
      throw wholeNumberOutOfRange('query.top', MAX_EXPENSE_TOP);
    }
    await ensureTable(this.table);
    const pages = this.table
      .listEntities<Record<string, unknown>>({
        queryOptions: { filter: odata`PartitionKey eq ${partitionKey}` },
      })
      .byPage({ maxPageSize: top });
    const claims: ExpenseClaim[] = [];
    while (claims.length < top) {
      const page = await withStorageErrors(() => pages.next());
      if (page.done) break;
      for (const entity of page.value) {
        const claim = toClaim(entity);
        if (claim) claims.push(claim);
      }
      if (!page.value.continuationToken) break;
    }
    if (claims.length === 0) await this.requireEmployee?.(department, employeeId);
    return claims.slice(0, top);
  }

  /**
   * One page of an employee's claims, newest first: one partition query with `$top` = `pageSize`
   * (1–1000, default {@link DEFAULT_EXPENSE_PAGE_SIZE}), resumed after the last claim of the
   * previous page (`continuationToken`, bound to this employee).
   *
   * @throws {ValidationError} for an invalid department, employee id, page size or token.
   * @throws {NotFoundError} `EmployeeNotFound` when a first page is empty and there is no such
   *   employee.
   * @throws {DomainError} for storage faults that outlast the SDK's retries.
   */
  async page(
    department: string,
    employeeId: string,
    options: { pageSize?: number; continuationToken?: string } = {},
  ): Promise<ExpenseClaimPage> {
    const partitionKey = employeePartitionKey(department, employeeId);
    const pageSize = options.pageSize ?? DEFAULT_EXPENSE_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_EXPENSE_TOP) {
      throw wholeNumberOutOfRange('query.pageSize', MAX_EXPENSE_TOP);
    }
    const scope = `expenses|${partitionKey}`;
    const after =
      options.continuationToken === undefined
        ? undefined
        : decodeContinuationToken(scope, options.continuationToken).nextRowKey;
    await ensureTable(this.table);
    const { entities, more } = await readPartitionPage(this.table, partitionKey, after, pageSize);
    const resumeAt = entities.at(-1)?.rowKey ?? after ?? '';
    const items = entities
      .map(toClaim)
      .filter((claim): claim is ExpenseClaim => claim !== undefined);
    // Nothing to show: one point read tells an unknown employee (a former one's claims stay
    // readable).
    if (items.length === 0 && after === undefined)
      await this.requireEmployee?.(department, employeeId);
    return {
      items,
      continuationToken: more
        ? encodeContinuationToken(scope, { nextPartitionKey: partitionKey, nextRowKey: resumeAt })
        : null,
    };
  }
}

/** A page of claims, newest first; `continuationToken` is `null` after the oldest. */
export interface ExpenseClaimPage {
  items: ExpenseClaim[];
  continuationToken: string | null;
}

/** Maps a stored entity to a claim; `undefined` for an entity of another type or shape. */
function toClaim(entity: Record<string, unknown>): ExpenseClaim | undefined {
  const keys = keysOfType(entity, ENTITY_TYPE);
  if (!keys) return undefined;
  const { partitionKey, rowKey } = keys;
  const { Amount, Currency, Description } = entity;
  const key = parseInvertedTicksRowKey(rowKey);
  const owner = parseEmployeePartitionKey(partitionKey);
  if (
    !key ||
    !owner ||
    typeof Amount !== 'number' ||
    typeof Currency !== 'string' ||
    typeof Description !== 'string'
  ) {
    return undefined;
  }
  return {
    claimId: rowKey,
    department: owner.department,
    employeeId: owner.employeeId,
    amount: Amount,
    currency: Currency,
    description: Description,
    submittedAt: key.at,
  };
}
