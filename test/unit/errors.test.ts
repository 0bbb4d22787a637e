/**
 * Invalid input is reported whole and in plain words: every invalid field at once (`details`),
 * zod's default messages ("Invalid input: expected string, received undefined") replaced, a
 * schema's own messages kept.
 */
import { z } from 'zod';
import { MAX_PROBLEMS, validateInput, ValidationError } from '../../src/domainErrors';
import { newEmployeeSchema } from '../../src/directory/validation';

function refusal(schema: z.ZodType, value: unknown, where = 'body'): ValidationError {
  try {
    validateInput(schema, value, where);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('the value was accepted');
}

describe('an employee body with several problems', () => {
  const error = refusal(newEmployeeSchema, { firstName: 7, email: 'no-at-sign', shoeSize: 44 });

  it('lists every invalid field, each in plain words', () => {
    expect(error.details).toEqual(
      expect.arrayContaining([
        { field: 'body.employeeId', problem: 'is required' },
        { field: 'body.firstName', problem: 'must be text' },
        { field: 'body.lastName', problem: 'is required' },
        {
          field: 'body.email',
          problem: expect.stringMatching(/^must be an email address/),
        },
        { field: 'body.shoeSize', problem: 'is not an accepted field' },
      ]),
    );
    expect(error.details).toHaveLength(5);
  });

  it('names them all in the message, never in zod words', () => {
    for (const field of ['employeeId', 'firstName', 'lastName', 'email', 'shoeSize']) {
      expect(error.message).toContain(`body.${field}: `);
    }
    expect(error.message).not.toMatch(/expected|received|Invalid input/);
    expect(error.target).toBe(error.details![0]!.field);
    expect(error.code).toBe('InvalidInput');
  });
});

describe('plain words for the default messages', () => {
  it.each([
    [z.object({ n: z.number() }), { n: 'x' }, 'must be a number'],
    [z.object({ n: z.number().int() }), { n: 1.5 }, 'must be a whole number'],
    [z.object({ s: z.string().min(3) }), { s: 'ab' }, 'must be at least 3 characters long'],
    [z.object({ s: z.string().max(2) }), { s: 'abc' }, 'must be at most 2 characters long'],
    [z.object({ a: z.array(z.string()).min(2) }), { a: [] }, 'must hold at least 2 items'],
    [z.object({ a: z.array(z.string()).min(1) }), { a: [] }, 'must not be empty'],
    [z.object({ s: z.string().min(1) }), { s: '' }, 'must not be empty'],
    [z.object({ s: z.string().max(1) }), { s: 'ab' }, 'must be at most 1 character long'],
    [z.object({ n: z.number().positive() }), { n: 0 }, 'must be more than 0'],
    [z.object({ e: z.enum(['read', 'write']) }), { e: 'x' }, 'must be one of "read", "write"'],
    [z.object({ b: z.boolean() }), { b: 'yes' }, 'must be true or false'],
    [z.object({ o: z.object({}) }), { o: [] }, 'must be an object'],
  ])('%#: %j is refused with "%s"', (schema, value, problem) => {
    expect(refusal(schema, value).details![0]!.problem).toBe(problem);
  });

  it('keeps a schema message of its own', () => {
    const schema = z.object({ id: z.string().regex(/^\d{6}$/, 'must be exactly six digits') });
    expect(refusal(schema, { id: '12' }).details).toEqual([
      { field: 'body.id', problem: 'must be exactly six digits' },
    ]);
  });

  it('names a body that is not an object as the body itself', () => {
    expect(refusal(newEmployeeSchema, null).details).toEqual([
      { field: 'body', problem: 'must be an object' },
    ]);
  });
});

it('caps a very long list: the message names ten, details hold at most MAX_PROBLEMS', () => {
  const rows = z.object({ rows: z.array(z.object({ n: z.number() })) });
  const error = refusal(rows, { rows: Array.from({ length: 300 }, () => ({ n: 'x' })) });
  expect(error.details).toHaveLength(MAX_PROBLEMS);
  expect(error.details![3]).toEqual({ field: 'body.rows[3].n', problem: 'must be a number' });
  expect(error.message).toContain('and 290 more (see details)');
});
