/**
 * The sample organisation of `npm run seed` (tools/seed/): the same on every run, names from many
 * cultures that stay unique with work emails a mail system accepts, drawn avatars that are real
 * PNG files the photo checks accept, and activity plans that stay within the API's rules.
 */
import { inflateSync } from 'node:zlib';
import { sniffPhotoType } from '../../../src/photos/imageType';
import { expensePlan, messagePlan, reviewFor } from '../../../tools/seed/activity';
import { avatarPng, hashSeed } from '../../../tools/seed/avatar';
import { DEPARTMENTS, emailLocalPart, seededRandom, seedPeople } from '../../../tools/seed/people';

describe('the sample people', () => {
  const people = seedPeople();

  it('is the same organisation on every run, department by department, ids from 000001', () => {
    expect(seedPeople()).toEqual(people);
    for (const d of DEPARTMENTS) {
      const ids = people.filter((p) => p.department === d.name).map((p) => p.employeeId);
      expect(ids).toHaveLength(d.size);
      expect(ids[0]).toBe('000001');
      expect(ids.at(-1)).toBe(String(d.size).padStart(6, '0'));
    }
    expect(DEPARTMENTS.find((d) => d.name === 'Engineering')?.size).toBeGreaterThan(100);
  });

  it('has unique names and unique plain-ASCII work emails', () => {
    const names = people.map((p) => `${p.firstName} ${p.lastName}`);
    expect(new Set(names).size).toBe(people.length);
    const emails = people.map((p) => p.email);
    expect(new Set(emails).size).toBe(people.length);
    for (const email of emails) expect(email).toMatch(/^[a-z]+\.[a-z]+\d*@contoso\.com$/);
  });

  it('draws names from many cultures, with the accents and apostrophes real names have', () => {
    const names = people.map((p) => `${p.firstName} ${p.lastName}`).join(' ');
    expect(names).toMatch(/[À-ž]/); // accents, ł, ş, ö...
    expect(names).toMatch(/O'/);
    expect(new Set(people.map((p) => p.lastName)).size).toBeGreaterThan(120);
    expect(emailLocalPart('Łukasz', "O'Brien-Żak")).toBe('lukasz.obrienzak');
    expect(emailLocalPart('Ayşe', 'Yılmaz')).toBe('ayse.yilmaz');
  });
});

describe('the drawn avatars', () => {
  it('are 160×160 RGB PNG files the photo checks accept, the same for the same person', () => {
    const png = avatarPng(hashSeed('Engineering/000001/Folake'));
    expect(sniffPhotoType(png)).toBe('image/png');
    expect(png.readUInt32BE(16)).toBe(160); // IHDR width
    expect(png.readUInt32BE(20)).toBe(160); // IHDR height
    const idat = png.indexOf('IDAT');
    const length = png.readUInt32BE(idat - 4);
    const rows = inflateSync(png.subarray(idat + 4, idat + 4 + length));
    expect(rows.length).toBe((160 * 3 + 1) * 160);
    expect(avatarPng(hashSeed('Engineering/000001/Folake')).equals(png)).toBe(true);
    expect(avatarPng(hashSeed('Sales/000002/Omar')).equals(png)).toBe(false);
  });
});

describe('the activity plans', () => {
  const now = new Date('2026-11-27T15:20:00Z');

  it('rates reviews between 6 and 10 in halves', () => {
    const random = seededRandom(1);
    for (let i = 0; i < 50; i++) {
      const review = reviewFor(random);
      for (const rating of [review.managerRating, review.peerRating]) {
        expect(rating).toBeGreaterThanOrEqual(6);
        expect(rating).toBeLessThanOrEqual(10);
        expect(rating * 2).toBe(Math.round(rating * 2));
      }
    }
  });

  it('claims expenses of the last 120 days, oldest first, with at most two decimals', () => {
    const claims = expensePlan(seededRandom(2), now);
    expect(claims.length).toBeGreaterThanOrEqual(6);
    expect(claims.length).toBeLessThanOrEqual(12);
    expect(claims.map((c) => c.submittedAt)).toEqual(claims.map((c) => c.submittedAt).sort());
    for (const claim of claims) {
      expect(String(claim.amount)).toMatch(/^\d+(\.\d{1,2})?$/);
      expect(claim.currency).toMatch(/^[A-Z]{3}$/);
      expect(now.getTime() - Date.parse(claim.submittedAt)).toBeLessThan(120 * 86_400_000);
    }
  });

  it('counts messages by day up to the day before yesterday, then by hour, never in the future', () => {
    const plan = messagePlan(seededRandom(3), now, '000004');
    const today = 330; // 27 November 2026
    expect(plan.days.map((d) => d.day)).toEqual(Array.from({ length: today - 1 }, (_, i) => i));
    expect(plan.recent.map((r) => r.date)).toEqual(['2026-11-26', '2026-11-27']);
    for (const { hours } of plan.recent) expect(hours).toHaveLength(24);
    const weekdays = plan.days.filter(
      (d) => ![0, 6].includes(new Date(Date.UTC(2026, 0, 1 + d.day)).getUTCDay()),
    );
    const busy = weekdays.filter((d) => d.count > 0).length;
    expect(busy / weekdays.length).toBeGreaterThan(0.8);
  });
});
