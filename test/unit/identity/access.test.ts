import { ForbiddenError, UnauthenticatedError } from '../../../src/domainErrors';
import {
  admin,
  anonymous,
  anyOf,
  authorize,
  departmentEditor,
  departmentReader,
  departmentReaderWhenNamed,
  self,
  signedIn,
  telemetryWriter,
  theUser,
  type AccessRule,
  type AccessTarget,
} from '../../../src/identity/access';
import type { Principal } from '../../../src/identity/principal';

const who = (roles: string[], extra: Partial<Principal> = {}): Principal => ({
  userId: 'u',
  roles: new Set(roles),
  claims: [],
  ...extra,
});

const salesEmployee = who([], { employee: { department: 'Sales', employeeId: '000123' } });
const hrTwin = who([], { employee: { department: 'HR', employeeId: '000123' } });
const salesReader = who(['DirectoryReader:Sales']);
const salesEditor = who(['DirectoryEditor:Sales']);
const telemetry = who(['TelemetryWriter']);
const boss = who(['DirectoryAdmin']);
const sales123: AccessTarget = { department: 'Sales', employeeId: '000123' };

function decision(rule: AccessRule, principal: Principal | undefined, target: AccessTarget) {
  try {
    authorize(rule, principal, target);
    return 'allowed';
  } catch (error) {
    if (error instanceof UnauthenticatedError) return 401;
    if (error instanceof ForbiddenError) return 403;
    throw error;
  }
}

describe('access rules', () => {
  it('admit nobody without identity but the anonymous rule', () => {
    expect(decision(anonymous, undefined, {})).toBe('allowed');
    for (const rule of [signedIn, admin, departmentReader, self, anyOf(self, departmentEditor)]) {
      expect(decision(rule, undefined, sales123)).toBe(401);
    }
  });

  it('self is the pair (department, employeeId): the twin with the same id elsewhere is refused', () => {
    const rule = anyOf(self);
    expect(decision(rule, salesEmployee, sales123)).toBe('allowed');
    expect(decision(rule, hrTwin, sales123)).toBe(403);
    expect(decision(rule, salesEmployee, { department: 'Sales', employeeId: '000124' })).toBe(403);
    expect(decision(rule, salesReader, sales123)).toBe(403);
    expect(decision(rule, boss, sales123)).toBe('allowed');
  });

  it('department roles admit their own department only, and never without one', () => {
    expect(decision(departmentReader, salesReader, sales123)).toBe('allowed');
    expect(decision(departmentReader, salesReader, { department: 'HR' })).toBe(403);
    expect(decision(departmentReader, salesReader, {})).toBe(403);
    expect(decision(departmentReader, salesEditor, sales123)).toBe(403);
    expect(decision(departmentEditor, salesEditor, sales123)).toBe('allowed');
    expect(decision(departmentEditor, salesReader, sales123)).toBe(403);
    expect(decision(departmentEditor, boss, { department: 'Anything' })).toBe('allowed');
  });

  it('the last-name search needs the reader role only when a department is named', () => {
    expect(decision(departmentReaderWhenNamed, telemetry, {})).toBe('allowed');
    expect(decision(departmentReaderWhenNamed, telemetry, { department: 'Sales' })).toBe(403);
    expect(decision(departmentReaderWhenNamed, salesReader, { department: 'Sales' })).toBe(
      'allowed',
    );
  });

  it('telemetry and user rules, each joined by admin in anyOf', () => {
    expect(decision(anyOf(telemetryWriter), telemetry, {})).toBe('allowed');
    expect(decision(anyOf(telemetryWriter), salesEditor, {})).toBe(403);
    expect(decision(anyOf(telemetryWriter), boss, {})).toBe('allowed');
    expect(decision(anyOf(theUser), who([], { userId: 'alice' }), { userId: 'alice' })).toBe(
      'allowed',
    );
    expect(decision(anyOf(theUser), who([], { userId: 'alice' }), { userId: 'Alice' })).toBe(403);
    expect(decision(anyOf(theUser), who([], { userId: 'alice' }), {})).toBe(403);
  });

  it('say in the 403 who would have been allowed', () => {
    expect(() => authorize(anyOf(self, departmentReader), telemetry, sales123)).toThrow(
      'This needs the employee itself or DirectoryReader:Sales or DirectoryAdmin.',
    );
  });

  it('fill in the department of a rule that reads it from the query, with no placeholder left', () => {
    let message = '';
    try {
      authorize(departmentReaderWhenNamed, telemetry, { department: 'North Sales' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('This needs DirectoryReader:North%20Sales.');
    expect(message).not.toMatch(/[{}]/);
  });
});
