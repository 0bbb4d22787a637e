/**
 * The operations of the request-cost case (bench/cases/requestCost.ts), each with the fewest
 * storage requests that can store its effect: the case compares what the service spends against
 * these minimums, so a minimum and the calls it is the minimum of live side by side.
 */
import { benchEmployee } from '../employees';
import { adminPrincipal, asPrincipal, employeePrincipal, telemetryPrincipal } from '../principals';

export const DEPT = 'Cost';
const LOG_LINES_PER_BATCH = 100;

/** One measured API operation and the minimum it is compared against. */
export interface Operation {
  name: string;
  /** The fewest requests that can store the effect of one operation, and why. */
  minimum: number;
  minimumReason: string;
  /** Runs the calls; returns how many operations they were. */
  run(api: Api, ops: number): Promise<number>;
}

/** HTTP calls against the host, failing on any unexpected status. */
export class Api {
  constructor(
    private readonly baseUrl: string,
    /** What the host printed, attached to an unexpected 5xx so its cause is not lost. */
    private readonly hostOutput: () => string = () => '',
  ) {}

  /** Calls `path` as `principal`; throws on a status not in `expected`. */
  async call(
    method: string,
    path: string,
    principal: string,
    body: unknown,
    expected: number[],
  ): Promise<unknown> {
    const response = await fetch(
      `${this.baseUrl}/${path}`,
      asPrincipal(principal, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    if (!expected.includes(response.status)) {
      const log =
        response.status >= 500 ? `\nHost output (tail):\n${this.hostOutput().slice(-4000)}` : '';
      throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}${log}`);
    }
    return text ? (JSON.parse(text) as unknown) : undefined;
  }
}

/** The cost department's employees, and employee `n`'s id there. */
export const employeesPath = `departments/${DEPT}/employees`;
export const id = (n: number): string => benchEmployee(n).employeeId;

/**
 * The operations, in the order they run (each works on employees the earlier ones left):
 * creates 1..ops, patches and reviews them, archives the first half and deletes the second.
 */
export const OPERATIONS: Operation[] = [
  {
    name: 'create',
    minimum: 1,
    minimumReason: 'one EGT (employee, email copy, count, last-name index)',
    async run(api, ops) {
      for (let n = 1; n <= ops; n++)
        await api.call('POST', employeesPath, adminPrincipal, benchEmployee(n), [201]);
      return ops;
    },
  },
  {
    name: 'patch',
    minimum: 1,
    minimumReason: 'one EGT (employee, email copy) when its ETag is known',
    async run(api, ops) {
      for (let n = 1; n <= ops; n++)
        await api.call('PATCH', `${employeesPath}/${id(n)}`, adminPrincipal, { age: 30 }, [200]);
      return ops;
    },
  },
  {
    name: 'review',
    minimum: 1,
    minimumReason: 'one EGT (review + employee merge) when the employee ETag is known',
    async run(api, ops) {
      for (let n = 1; n <= ops; n++) {
        await api.call(
          'PUT',
          `${employeesPath}/${id(n)}/reviews/2024`,
          adminPrincipal,
          { managerRating: 7, peerRating: 8, comments: 'Bench review' },
          [200],
        );
      }
      return ops;
    },
  },
  {
    name: 'expense',
    minimum: 1,
    minimumReason: 'one insert',
    async run(api, ops) {
      for (let n = 1; n <= ops; n++) {
        await api.call(
          'POST',
          `${employeesPath}/${id(n)}/expenses`,
          employeePrincipal(DEPT, id(n)),
          { amount: 12.5, currency: 'EUR', description: 'Taxi' },
          [201],
        );
      }
      return ops;
    },
  },
  {
    name: 'increment',
    minimum: 2,
    minimumReason: 'two counter merges (hourly and daily entities) with cached ETags',
    async run(api, ops) {
      for (let n = 1; n <= ops; n++) {
        await api.call(
          'POST',
          `${employeesPath}/${id(n)}/messages`,
          telemetryPrincipal,
          { count: 1 },
          [204],
        );
      }
      return ops;
    },
  },
  {
    name: 'log line',
    minimum: 1 / LOG_LINES_PER_BATCH,
    minimumReason: `one block append per ${LOG_LINES_PER_BATCH}-line batch`,
    async run(api, ops) {
      const batches = Math.max(1, Math.ceil(ops / 10));
      const at = Date.now() - 60_000;
      for (let b = 0; b < batches; b++) {
        const entries = Array.from({ length: LOG_LINES_PER_BATCH }, (_, i) => ({
          at: new Date(at + b * LOG_LINES_PER_BATCH + i).toISOString(),
          level: 'Information',
          message: `bench line ${b}-${i}`,
        }));
        await api.call('POST', 'logs', telemetryPrincipal, { source: 'bench', entries }, [202]);
      }
      return batches * LOG_LINES_PER_BATCH;
    },
  },
  {
    name: 'import row',
    minimum: 1 / 48,
    minimumReason: 'one EGT per ~48 rows (2 operations per row, index and count)',
    async run(api, ops) {
      const rows = Math.max(100, ops * 10);
      const employees = Array.from({ length: rows }, (_, i) => benchEmployee(100_001 + i));
      const result = (await api.call(
        'POST',
        `${employeesPath}/import`,
        adminPrincipal,
        {
          employees,
        },
        [200],
      )) as { created: number };
      if (result.created !== rows) throw new Error(`Import created ${result.created} of ${rows}.`);
      return rows;
    },
  },
  {
    name: 'archive',
    minimum: 3,
    minimumReason: 'read, archive upsert, delete EGT',
    async run(api, ops) {
      const half = Math.ceil(ops / 2);
      for (let n = 1; n <= half; n++)
        await api.call(
          'POST',
          `${employeesPath}/${id(n)}/archive`,
          adminPrincipal,
          undefined,
          [202],
        );
      return half;
    },
  },
  {
    name: 'delete',
    minimum: 2,
    minimumReason: 'read (ETag, review years) + one delete EGT',
    async run(api, ops) {
      const half = Math.ceil(ops / 2);
      for (let n = half + 1; n <= ops; n++)
        await api.call('DELETE', `${employeesPath}/${id(n)}`, adminPrincipal, undefined, [204]);
      return ops - half;
    },
  },
];
