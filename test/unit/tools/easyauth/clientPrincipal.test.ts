import { parsePrincipalHeader, PRINCIPAL_HEADER } from '../../../../src/identity/principal';
import {
  clientPrincipal,
  isPlatformIdentityHeader,
  OBJECT_ID_CLAIM_URI,
  principalHeaders,
} from '../../../../tools/easyauth/clientPrincipal';
import { claimsForPrincipal } from '../../../../tools/easyauth/tokenClaims';

describe('the principal App Service builds from token claims', () => {
  const payload = {
    iss: 'https://issuer.test',
    aud: 'client',
    exp: 1_900_000_000,
    oid: 'oid-1',
    name: 'Ada',
    preferred_username: 'ada@x.test',
    roles: ['DirectoryAdmin', 'DirectoryReader:Sales'],
    verified: true,
    address: { city: 'Oslo' },
  };

  it('writes one claim per value, arrays split, oid also under its URI', () => {
    const principal = clientPrincipal(payload);
    expect(principal).toMatchObject({ auth_typ: 'aad', role_typ: 'roles' });
    expect(principal.claims).toEqual([
      { typ: 'iss', val: 'https://issuer.test' },
      { typ: 'aud', val: 'client' },
      { typ: 'exp', val: '1900000000' },
      { typ: 'oid', val: 'oid-1' },
      { typ: OBJECT_ID_CLAIM_URI, val: 'oid-1' },
      { typ: 'name', val: 'Ada' },
      { typ: 'preferred_username', val: 'ada@x.test' },
      { typ: 'roles', val: 'DirectoryAdmin' },
      { typ: 'roles', val: 'DirectoryReader:Sales' },
      { typ: 'verified', val: 'true' },
      { typ: 'address', val: '{"city":"Oslo"}' },
    ]);
  });

  it('sets the id, name and provider headers, and a principal the app parses', () => {
    const headers = principalHeaders(payload);
    expect(headers[`${PRINCIPAL_HEADER}-id`]).toBe('oid-1');
    expect(headers[`${PRINCIPAL_HEADER}-name`]).toBe('ada@x.test');
    expect(headers[`${PRINCIPAL_HEADER}-idp`]).toBe('aad');
    const parsed = parsePrincipalHeader(headers[PRINCIPAL_HEADER]);
    expect(parsed.userId).toBe('oid-1');
    expect([...parsed.roles]).toEqual(['DirectoryAdmin', 'DirectoryReader:Sales']);
  });

  it('falls back to the subject for the id and writes a non-ASCII name as UTF-8 bytes', () => {
    const headers = principalHeaders({ sub: 'subject', name: 'José' });
    expect(headers[`${PRINCIPAL_HEADER}-id`]).toBe('subject');
    expect(Buffer.from(headers[`${PRINCIPAL_HEADER}-name`]!, 'latin1').toString('utf8')).toBe(
      'José',
    );
  });

  it.each([
    ['x-ms-client-principal', true],
    ['X-MS-CLIENT-PRINCIPAL-ID', true],
    ['x-ms-client-principal-idp', true],
    ['x-ms-token-aad-access-token', true],
    ['x-ms-request-id', false],
    ['authorization', false],
  ])('%s is a platform identity header: %s', (name, expected) => {
    expect(isPlatformIdentityHeader(name)).toBe(expected);
  });
});

describe('token claims for a caller described as for a hand-sent header', () => {
  it('round-trips a description through the front’s principal', () => {
    const claims = claimsForPrincipal({
      userId: 'u1',
      name: 'Una',
      roles: ['DirectoryEditor:Sales'],
      employee: { department: 'Sales', employeeId: '000123' },
    });
    expect(claims).toEqual({
      oid: 'u1',
      name: 'Una',
      department: 'Sales',
      employeeId: '000123',
      roles: ['DirectoryEditor:Sales'],
    });
    const parsed = parsePrincipalHeader(principalHeaders(claims)[PRINCIPAL_HEADER]);
    expect(parsed).toMatchObject({
      userId: 'u1',
      name: 'Una',
      employee: { department: 'Sales', employeeId: '000123' },
    });
    expect([...parsed.roles]).toEqual(['DirectoryEditor:Sales']);
  });

  it('keeps odd claims of an encoded (forged) header, drops the registered ones', () => {
    const header = Buffer.from(
      JSON.stringify({
        role_typ: 'grp',
        claims: [
          { typ: 'name', val: 'mallory' },
          { typ: 'grp', val: 'DirectoryAdmin' },
          { typ: 'grp', val: 'Other' },
          { typ: 'aud', val: 'forged' },
        ],
      }),
    ).toString('base64');
    expect(claimsForPrincipal(header)).toEqual({
      name: 'mallory',
      grp: ['DirectoryAdmin', 'Other'],
    });
  });

  it('refuses a header that is not base64 JSON with claims', () => {
    expect(() => claimsForPrincipal('%%%')).toThrow(/base64 JSON/);
    expect(() => claimsForPrincipal(Buffer.from('{}').toString('base64'))).toThrow(/claims/);
  });
});
