import { createHmac } from 'node:crypto';
import { signTableSas } from '../../../src/sas/tableSas';

const key = { accountName: 'acct', accountKey: Buffer.from('k'.repeat(32)).toString('base64') };
const window = {
  startsOn: new Date('2026-11-22T09:55:00Z'),
  expiresOn: new Date('2026-11-22T10:15:00Z'),
};

describe('table SAS signing', () => {
  it('puts the partition range in the token and in the signature', () => {
    const sas = signTableSas(
      { table: 'EmployeeExpenses', partitionKey: 'Human Resources_000223' },
      { key, window, protocol: 'https' },
    );
    const params = new URLSearchParams(sas);
    expect(params.get('spk')).toBe('Human Resources_000223');
    expect(params.get('epk')).toBe('Human Resources_000223');
    expect(params.get('tn')).toBe('EmployeeExpenses');
    expect(params.get('sp')).toBe('r');
    expect(params.get('spr')).toBe('https');
    expect(params.get('se')).toBe('2026-11-22T10:15:00Z');
    expect(params.get('st')).toBe('2026-11-22T09:55:00Z');
    expect(params.has('si')).toBe(false);

    // Recompute the documented string-to-sign: the range is covered by the signature.
    const stringToSign = [
      'r',
      '2026-11-22T09:55:00Z',
      '2026-11-22T10:15:00Z',
      '/table/acct/employeeexpenses',
      '',
      '',
      'https',
      params.get('sv'),
      'Human Resources_000223',
      '',
      'Human Resources_000223',
      '',
    ].join('\n');
    const expected = createHmac('sha256', Buffer.from(key.accountKey, 'base64'))
      .update(stringToSign, 'utf8')
      .digest('base64');
    expect(params.get('sig')).toBe(expected);
  });

  it('leaves the permission to the stored access policy when bound to one', () => {
    const sas = signTableSas(
      {
        table: 'Employees',
        partitionKey: 'Sales',
        rowKeyStart: 'empid_000000',
        rowKeyEnd: 'empid_999999',
      },
      { key, window, policyId: 'directory-sas-v3', protocol: 'https,http' },
    );
    const params = new URLSearchParams(sas);
    expect(params.get('si')).toBe('directory-sas-v3');
    expect(params.has('sp')).toBe(false);
    expect(params.get('se')).toBe('2026-11-22T10:15:00Z');
    expect(params.get('srk')).toBe('empid_000000');
    expect(params.get('erk')).toBe('empid_999999');
    expect(params.get('spr')).toBe('https,http');
  });
});
