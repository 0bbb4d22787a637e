import { UnauthenticatedError } from '../../../src/domainErrors';
import { parsePrincipalHeader } from '../../../src/identity/principal';
import { encodePrincipalHeader } from '../../../tools/easyauth/principalHeader';

const b64 = (value: unknown): string =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8').toString('base64');

/** A principal exactly as App Service authentication sends it for an Entra ID user. */
const appServicePrincipal = {
  auth_typ: 'aad',
  name_typ: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  role_typ: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/role',
  claims: [
    { typ: 'aud', val: 'api://directory' },
    { typ: 'http://schemas.microsoft.com/identity/claims/objectidentifier', val: '6f1c-oid' },
    // A user's subject is pairwise per app: a different value beside the object id.
    {
      typ: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/nameidentifier',
      val: 'pairwise-sub-for-this-app',
    },
    { typ: 'sub', val: 'pairwise-sub-for-this-app' },
    { typ: 'oid', val: '6f1c-oid' },
    { typ: 'name', val: 'Jones, Jane' },
    { typ: 'roles', val: 'DirectoryReader:Sales' },
    { typ: 'roles', val: 'DirectoryEditor:Sales' },
    { typ: 'department', val: 'Sales' },
    { typ: 'employeeId', val: '000223' },
  ],
};

function expectUnauthenticated(header: string | undefined | null, code: string): void {
  let thrown: unknown;
  try {
    parsePrincipalHeader(header);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(UnauthenticatedError);
  expect((thrown as UnauthenticatedError).code).toBe(code);
}

describe('App Service principal header', () => {
  it('reads the user id, name, roles and the employee as the pair (department, employeeId)', () => {
    const principal = parsePrincipalHeader(b64(appServicePrincipal));
    expect(principal.userId).toBe('6f1c-oid');
    expect(principal.name).toBe('Jones, Jane');
    expect(principal.identityProvider).toBe('aad');
    expect([...principal.roles].sort()).toEqual(['DirectoryEditor:Sales', 'DirectoryReader:Sales']);
    expect(principal.employee).toEqual({ department: 'Sales', employeeId: '000223' });
  });

  it('names no employee from an employee id without its department (ids repeat across departments)', () => {
    const principal = parsePrincipalHeader(
      b64({
        claims: [
          { typ: 'oid', val: 'u-1' },
          { typ: 'employeeId', val: '000001' },
        ],
      }),
    );
    expect(principal.userId).toBe('u-1');
    expect(principal.employee).toBeUndefined();
  });

  it('takes the user id only from object id claims, never from a top-level userId', () => {
    const principal = parsePrincipalHeader(
      b64({ userId: 'victim-oid', claims: [{ typ: 'oid', val: 'attacker-oid' }] }),
    );
    expect(principal.userId).toBe('attacker-oid');
    expect(() => parsePrincipalHeader(b64({ userId: 'victim-oid' }))).toThrow(UnauthenticatedError);
  });

  it('takes roles only from roles claims: the header cannot choose its own role claim type', () => {
    const forged = parsePrincipalHeader(
      b64({
        role_typ: 'grp',
        claims: [
          { typ: 'name', val: 'mallory' },
          { typ: 'grp', val: 'DirectoryAdmin' },
          { typ: 'groups', val: 'DirectoryAdmin' },
          { typ: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/role', val: 'X' },
        ],
      }),
    );
    expect(forged.roles.size).toBe(0);
  });

  it('keeps claim values exactly as sent: a padded role is a different role', () => {
    const padded = parsePrincipalHeader(
      b64({
        claims: [
          { typ: 'name', val: 'p' },
          { typ: 'roles', val: ' DirectoryAdmin ' },
          { typ: 'department', val: 'Sales ' },
          { typ: 'employeeId', val: '000223' },
        ],
      }),
    );
    expect([...padded.roles]).toEqual([' DirectoryAdmin ']);
    expect(padded.employee).toEqual({ department: 'Sales ', employeeId: '000223' });
  });

  it('round-trips what encodePrincipalHeader writes', () => {
    const principal = parsePrincipalHeader(
      encodePrincipalHeader({
        userId: 'u',
        roles: ['DirectoryReader:R&D ü'],
        employee: { department: 'Human Resources', employeeId: '000042' },
      }),
    );
    expect([...principal.roles]).toEqual(['DirectoryReader:R&D ü']);
    expect(principal.employee).toEqual({ department: 'Human Resources', employeeId: '000042' });
  });

  it.each([undefined, null, ''])('refuses a missing header (%p) as Unauthenticated', (header) => {
    expectUnauthenticated(header, 'Unauthenticated');
  });

  it.each([
    ['not base64', '%%%not-base64%%%'],
    ['padding around base64', ` ${b64({ userId: 'u' })} `],
    ['base64 of text that is not JSON', b64('hello')],
    ['a JSON array', b64([1, 2])],
    ['JSON null', b64('null')],
    ['claims that are not an array', b64({ claims: 'roles=DirectoryAdmin' })],
    ['a claim without val', b64({ claims: [{ typ: 'roles' }] })],
    ['a claim with a numeric val', b64({ claims: [{ typ: 'name', val: 7 }] })],
    ['a principal naming nobody', b64({ claims: [{ typ: 'roles', val: 'DirectoryAdmin' }] })],
    [
      'two different departments',
      b64({
        claims: [
          { typ: 'oid', val: 'u' },
          { typ: 'department', val: 'Sales' },
          { typ: 'department', val: 'HR' },
          { typ: 'employeeId', val: '000001' },
        ],
      }),
    ],
    ['a huge header', 'A'.repeat(40_000)],
  ])('refuses %s as InvalidPrincipal, never a crash', (_label, header) => {
    expectUnauthenticated(header, 'InvalidPrincipal');
  });
});
