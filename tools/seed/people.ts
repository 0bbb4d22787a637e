/**
 * The sample organisation `npm run seed` writes: departments, and people whose names come from
 * many cultures (with the accents, apostrophes and hyphens real names have), drawn by a seeded
 * generator so every run plans exactly the same directory. Pure: no I/O.
 */
import names from './names.json';

/** A department of the sample organisation. */
export interface SeedDepartment {
  name: string;
  description: string;
  size: number;
}

/** The departments, with how many people each has (Engineering's 150 pass one page of 100). */
export const DEPARTMENTS: readonly SeedDepartment[] = [
  {
    name: 'Engineering',
    description: 'Builds and runs the products and the platform under them.',
    size: 150,
  },
  {
    name: 'Customer Support',
    description: 'Answers customers by phone, chat and email, around the clock.',
    size: 28,
  },
  {
    name: 'Sales',
    description: 'Finds new customers and looks after the accounts we have.',
    size: 36,
  },
  { name: 'Marketing', description: 'Brand, campaigns, events and the website.', size: 18 },
  {
    name: 'Research',
    description: 'Applied research and prototypes for the next products.',
    size: 20,
  },
  { name: 'Finance', description: 'Accounting, payroll, budgets and purchasing.', size: 14 },
  { name: 'Human Resources', description: 'Hiring, onboarding, benefits and learning.', size: 12 },
  { name: 'Legal', description: 'Contracts, privacy and compliance.', size: 6 },
];

/** First and last names of one naming tradition (a first name goes with a last name of its own). */
interface Culture {
  first: readonly string[];
  last: readonly string[];
}

/** Names by tradition, kept as data (tools/seed/names.json). */
const CULTURES: readonly Culture[] = names;

/** A deterministic generator (mulberry32): the same seed gives the same sequence on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One of `items`, drawn with `random`. */
export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** `Łukasz O'Brien-Żak` → `lukasz.obrienzak`: the local part of a work email. */
export function emailLocalPart(first: string, last: string): string {
  const ascii = (text: string): string =>
    text
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .replace(/ł/g, 'l')
      .replace(/Ł/g, 'L')
      .replace(/ı/g, 'i')
      .toLowerCase()
      .replace(/[^a-z]/g, '');
  return `${ascii(first)}.${ascii(last)}`;
}

/** A person the seed creates. */
export interface SeedPerson {
  department: string;
  employeeId: string;
  firstName: string;
  lastName: string;
  email: string;
  age: number;
}

/** The mail domain of the sample organisation. */
export const MAIL_DOMAIN = 'contoso.com';

/**
 * Every person of the sample organisation, department by department, ids from 000001 up; names
 * are unique in the organisation, and so are emails.
 */
export function seedPeople(departments: readonly SeedDepartment[] = DEPARTMENTS): SeedPerson[] {
  const random = seededRandom(20_260_101);
  const names = new Set<string>();
  const emails = new Set<string>();
  const people: SeedPerson[] = [];
  for (const department of departments) {
    for (let n = 1; n <= department.size; n++) {
      const draw = (): [string, string] => {
        const culture = pick(random, CULTURES);
        return [pick(random, culture.first), pick(random, culture.last)];
      };
      let [firstName, lastName] = draw();
      while (names.has(`${firstName} ${lastName}`)) [firstName, lastName] = draw();
      names.add(`${firstName} ${lastName}`);
      const local = emailLocalPart(firstName, lastName);
      let email = `${local}@${MAIL_DOMAIN}`;
      for (let k = 2; emails.has(email); k++) email = `${local}${k}@${MAIL_DOMAIN}`;
      emails.add(email);
      people.push({
        department: department.name,
        employeeId: String(n).padStart(6, '0'),
        firstName,
        lastName,
        email,
        age: 22 + Math.floor(random() * 42),
      });
    }
  }
  return people;
}
