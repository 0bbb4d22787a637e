/**
 * Input a user can type — quotes, slashes, `#`, `?`, `%`, `&`, spaces, non-Latin letters, emoji —
 * round-trips exactly, never produces an invalid key, and can never widen a query.
 */
import {
  createDirectoryFixture,
  employeeBody,
  partitionEntities,
  type DirectoryFixture,
} from './fixture';

let fx: DirectoryFixture;
beforeAll(async () => {
  fx = createDirectoryFixture();
  await fx.directory.departments.put('Ops', {});
  await fx.directory.departments.put('Secret', {});
  await fx.directory.employees.create(
    'Secret',
    employeeBody(1, { lastName: 'Hidden', email: 'hidden@secret.com' }),
  );
});
afterAll(() => fx.cleanup());

const awkward = [
  // Emails hold what the email rule lets in (src/directory/emailRule.ts): `/` and `#` still
  // need escaping in keys, `'` in filters.
  {
    firstName: `O'Brien "Bob"`,
    lastName: `d'Artagnan / \\ # ? % & x`,
    email: `o'brien+x/y#q&t=s{r}|~@ex.com`,
  },
  { firstName: 'Ωμέγα', lastName: '山田', email: 'ünïcödé.用户@例子.广告' },
  { firstName: '😀 Smiley', lastName: '🦄 Unicorn', email: 'smiley.unicorn@emoji.io' },
  { firstName: 'Space  Two', lastName: 'van der Berg', email: 'first.last@spaces.com' },
  {
    firstName: `x' or PartitionKey ne '`,
    lastName: `x' or PartitionKey ne '`,
    email: `x'+or+PartitionKey+ne+'@evil.com`,
  },
];

it.each(awkward.map((a, i) => [i, a] as const))(
  'round-trips awkward input %i exactly through every read path',
  async (i, fields) => {
    const id = String(500 + i).padStart(6, '0');
    const created = await fx.directory.employees.create('Ops', { employeeId: id, ...fields });
    expect(created.value).toMatchObject(fields);
    expect((await fx.directory.employees.get('Ops', id)).value).toMatchObject(fields);
    expect((await fx.directory.employees.getByEmail('Ops', fields.email)).value).toMatchObject({
      employeeId: id,
      ...fields,
    });
    expect(
      (await fx.directory.employees.getByEmail('Ops', fields.email.toUpperCase())).value.employeeId,
    ).toBe(id);
    const byName = await fx.directory.employees.findByLastName('Ops', fields.lastName);
    expect(byName.items).toEqual([expect.objectContaining({ employeeId: id, ...fields })]);
    const byPrefix = await fx.directory.employees.list('Ops', {
      emailPrefix: [...fields.email].slice(0, 3).join(''),
    });
    expect(byPrefix.items.map((e) => e.employeeId)).toContain(id);
  },
);

it('stores only keys without forbidden characters', async () => {
  for (const entity of await partitionEntities(fx.table, 'Ops')) {
    // eslint-disable-next-line no-control-regex
    expect(String(entity.rowKey)).not.toMatch(/[/\\#?\u0000-\u001f\u007f-\u009f]/);
  }
});

it('an injection attempt in a lookup or a range never reaches another partition', async () => {
  const injection = `x' or PartitionKey ne '`;
  await expect(
    fx.directory.employees.getByEmail('Ops', `${injection}@nowhere`),
  ).rejects.toMatchObject({ code: 'EmployeeNotFound' });
  const ranged = await fx.directory.employees.list(
    'Ops',
    { emailFrom: injection, emailTo: `${injection}zzzz` },
    { pageSize: 1000 },
  );
  for (const e of ranged.items) expect(e.department).toBe('Ops');
  const all = await fx.directory.employees.list('Ops', { emailPrefix: `' or '1' eq '1` });
  expect(all.items).toEqual([]);
  expect(
    (await fx.directory.employees.findByLastName('Ops', `Hidden' or PartitionKey eq 'Secret`))
      .items,
  ).toEqual([]);
});

it('refuses control characters, lone surrogates, over-long names and emails (400) and stores nothing', async () => {
  const bad = [
    { firstName: 'Tab\there' },
    { lastName: 'Nul\u0000' },
    { firstName: '\ud800' },
    { lastName: 'x'.repeat(201) },
    { email: `${'a'.repeat(250)}@x.com` },
    { email: 'two@at@signs.com' },
    { email: ' padded@x.com' },
    { email: 'first last@spaces.com' },
    { email: `o'brien"x"\\z?r%s@ex.com` },
    { firstName: '   ' },
  ];
  for (const [i, override] of bad.entries()) {
    await expect(
      fx.directory.employees.create('Ops', employeeBody(700 + i, override)),
    ).rejects.toMatchObject({ kind: 'invalid' });
  }
  const ids = (await partitionEntities(fx.table, 'Ops')).map((e) => e.EmployeeId);
  for (let i = 0; i < bad.length; i++) expect(ids).not.toContain(String(700 + i).padStart(6, '0'));
});
