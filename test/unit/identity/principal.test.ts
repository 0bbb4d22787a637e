import { UnauthenticatedError } from '../../../src/errors';
import { encodePrincipalHeader, parsePrincipalHeader } from '../../../src/identity/principal';

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
    {
      typ: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
      val: 'jonesj@contoso.com',
    },
    { typ: 'name', val: 'Jones, Jane' },
    { typ: 'roles', val: 'DirectoryReader:Sales' },
    { typ: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/role', val: 'DirectoryAdmin' },
    { typ: 'extension_employeeId', val: '000223' },
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
  it('reads user id, name, roles (roles claims and role_typ claims) and the employee id', () => {
    const principal = parsePrincipalHeader(b64(appServicePrincipal));
    expect(principal.userId).toBe('6f1c-oid');
    expect(principal.name).toBe('jonesj@contoso.com');
    expect(principal.identityProvider).toBe('aad');
    expect([...principal.roles].sort()).toEqual(['DirectoryAdmin', 'DirectoryReader:Sales']);
    expect(principal.employeeId).toBe('000223');
  });

  it('accepts the plain employeeId claim and a top-level userId', () => {
    const principal = parsePrincipalHeader(
      b64({ userId: 'u-1', claims: [{ typ: 'employeeId', val: '000001' }] }),
    );
    expect(principal.userId).toBe('u-1');
    expect(principal.employeeId).toBe('000001');
    expect(principal.roles.size).toBe(0);
  });

  it('does not treat a claim named like a role as a role unless its type says so', () => {
    const principal = parsePrincipalHeader(
      b64({
        claims: [
          { typ: 'name', val: 'x' },
          { typ: 'groups', val: 'DirectoryAdmin' },
        ],
      }),
    );
    expect(principal.roles.has('DirectoryAdmin')).toBe(false);
  });

  it('round-trips what encodePrincipalHeader writes', () => {
    const principal = parsePrincipalHeader(
      encodePrincipalHeader({
        userId: 'u',
        roles: ['DirectoryReader:R&D ü'],
        employeeId: '000042',
      }),
    );
    expect([...principal.roles]).toEqual(['DirectoryReader:R&D ü']);
    expect(principal.employeeId).toBe('000042');
  });

  it.each([undefined, null, '', '   '])(
    'refuses a missing header (%p) as Unauthenticated',
    (header) => {
      expectUnauthenticated(header, 'Unauthenticated');
    },
  );

  it.each([
    ['not base64', '%%%not-base64%%%'],
    ['base64 of text that is not JSON', b64('hello')],
    ['a JSON array', b64([1, 2])],
    ['JSON null', b64('null')],
    ['claims that are not an array', b64({ claims: 'roles=DirectoryAdmin' })],
    ['a claim without val', b64({ claims: [{ typ: 'roles' }] })],
    ['a claim with a numeric val', b64({ claims: [{ typ: 'name', val: 7 }] })],
    ['a principal naming nobody', b64({ claims: [{ typ: 'roles', val: 'DirectoryAdmin' }] })],
    ['a non-string role_typ', b64({ role_typ: 1, claims: [{ typ: 'name', val: 'x' }] })],
    ['a huge header', 'A'.repeat(40_000)],
  ])('refuses %s as InvalidPrincipal, never a crash', (_label, header) => {
    expectUnauthenticated(header, 'InvalidPrincipal');
  });
});
