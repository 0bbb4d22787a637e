import {
  emailSchema,
  employeePatchSchema,
  isSaneEmail,
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

  it.each(['a@b', `o'brien+"x"/y@ex.com`, 'ünïcödé@例子.广告', 'first last@spaces.com'])(
    'accepts the email %j',
    (email) => {
      expect(isSaneEmail(email)).toBe(true);
      expect(emailSchema.safeParse(email).success).toBe(true);
    },
  );

  it.each([
    'no-at',
    '@x.com',
    'x@',
    'two@at@x.com',
    ' x@y.com',
    'x@y.com\n',
    `${'a'.repeat(250)}@x.com`,
  ])('refuses the email %j', (email) => {
    expect(emailSchema.safeParse(email).success).toBe(false);
  });

  it('requires the fields of a new employee and refuses unknown ones', () => {
    expect(
      newEmployeeSchema.safeParse({
        employeeId: '000001',
        firstName: 'a',
        lastName: 'b',
        email: 'a@b',
      }).success,
    ).toBe(true);
    expect(
      newEmployeeSchema.safeParse({ employeeId: '1', firstName: 'a', lastName: 'b', email: 'a@b' })
        .success,
    ).toBe(false);
    expect(
      newEmployeeSchema.safeParse({
        employeeId: '000001',
        firstName: 'a',
        lastName: 'b',
        email: 'a@b',
        salary: 1,
      }).success,
    ).toBe(false);
    expect(
      newEmployeeSchema.safeParse({
        employeeId: '000001',
        firstName: 'a',
        lastName: 'b',
        email: 'a@b',
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
