import {
  emailSchema,
  employeePatchSchema,
  isDirectoryEmail,
  newEmployeeSchema,
  personNameSchema,
} from '../../../src/directory/validation';

describe('directory input validation', () => {
  it.each([`O'Brien "Bob"`, 'a/b\\c#d?e%f&g', 'Ωμέγα', '😀 Smiley', 'van der Berg'])(
    'accepts the name %j',
    (name) => {
      expect(personNameSchema.safeParse(name).success).toBe(true);
    },
  );

  it.each(['', '   ', 'Tab\there', 'x\u0000', '\ud800', 'x'.repeat(201)])(
    'refuses the name %j',
    (name) => {
      expect(personNameSchema.safeParse(name).success).toBe(false);
    },
  );

  // One rule (src/directory/emailRule.ts) for the API's schema and the console's check.
  it.each([
    'ada@contoso.com',
    `o'brien+x/y@ex.com`,
    'first.last@mail.contoso.co.uk',
    'ünïcödé@例子.广告',
    'ada@xn--80ak6aa92e.com',
    'A/B#c&d=e@x.com',
    `${'a'.repeat(200)}@x.com`,
  ])('accepts the email %j', (email) => {
    expect(isDirectoryEmail(email)).toBe(true);
    expect(emailSchema.safeParse(email).success).toBe(true);
  });

  it.each([
    ['no @', 'no-at'],
    ['no local part', '@x.com'],
    ['no domain', 'x@'],
    ['two @', 'two@at@x.com'],
    ['a leading space', ' x@y.com'],
    ['a control character', 'x@y.com\n'],
    ['a space inside', 'a b@c.com'],
    ['a quoted local part', '"a b"@c.com'],
    ['a domain without a dot', 'ada@lovelace'],
    ['a single-letter top-level domain', 'x@y.z'],
    ['a digit top-level domain', 'x@y.c1'],
    ['an encoded second address and a mailto query', 'ada%40contoso.com?bcc=attacker@evil.example'],
    ['a ?', 'ada?@contoso.com'],
    ['a %', 'ada%x@contoso.com'],
    ['a dot at the start', '.ada@contoso.com'],
    ['two dots', 'ada..l@contoso.com'],
    ['a dot before @', 'ada.@contoso.com'],
    ['a hyphen at a label edge', 'ada@-contoso.com'],
    ['an emoji', '😀@emoji.io'],
    ['a bidi override', 'ada\u202e@contoso.com'],
    ['a no-break space', 'ada\u00a0l@contoso.com'],
    ['over 254 characters', `${'a'.repeat(60)}@${'b'.repeat(200)}.com`],
  ])('refuses an email with %s: %j', (_why, email) => {
    expect(isDirectoryEmail(email)).toBe(false);
    expect(emailSchema.safeParse(email).success).toBe(false);
  });

  it('requires the fields of a new employee and refuses unknown ones', () => {
    expect(
      newEmployeeSchema.safeParse({
        employeeId: '000001',
        firstName: 'a',
        lastName: 'b',
        email: 'a@b.example',
      }).success,
    ).toBe(true);
    expect(
      newEmployeeSchema.safeParse({
        employeeId: '1',
        firstName: 'a',
        lastName: 'b',
        email: 'a@b.example',
      }).success,
    ).toBe(false);
    expect(
      newEmployeeSchema.safeParse({
        employeeId: '000001',
        firstName: 'a',
        lastName: 'b',
        email: 'a@b.example',
        salary: 1,
      }).success,
    ).toBe(false);
    expect(
      newEmployeeSchema.safeParse({
        employeeId: '000001',
        firstName: 'a',
        lastName: 'b',
        email: 'a@b.example',
        age: 1.5,
      }).success,
    ).toBe(false);
  });

  it('needs at least one field in a patch and lets age be cleared with null', () => {
    expect(employeePatchSchema.safeParse({}).success).toBe(false);
    expect(employeePatchSchema.safeParse({ age: null }).success).toBe(true);
    expect(employeePatchSchema.safeParse({ employeeId: '000002' }).success).toBe(false);
  });
});
