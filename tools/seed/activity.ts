/**
 * The activity the seed gives its people: yearly reviews, expense claims of the last months, a
 * year of message counts (busier on weekdays and in working hours) and web log lines. Pure: each
 * plan is drawn from the seeded generator it is given, so a run plans what the last one did.
 */
import { pick, type SeedPerson } from './people';

const COMMENTS = [
  'Delivered the migration ahead of plan and mentored two new colleagues.',
  'Strong ownership of customer escalations; could delegate more.',
  'Reliable and calm under pressure. Great feedback from peers.',
  'Took the lead on the quarterly planning; keep sharing context early.',
  'Solid year. Next step: present the team’s work more widely.',
  'Improved the onboarding guide — everybody noticed.',
  'Helped other teams a lot; watch the workload.',
];

/** One year's review: ratings from 6 to 10 in halves, and a comment. */
export function reviewFor(random: () => number): {
  managerRating: number;
  peerRating: number;
  comments: string;
} {
  const rating = (): number => 6 + Math.round(random() * 8) / 2;
  return { managerRating: rating(), peerRating: rating(), comments: pick(random, COMMENTS) };
}

const CLAIMS: readonly { description: string; currency: string; min: number; max: number }[] = [
  { description: 'Train to the Berlin office', currency: 'EUR', min: 45, max: 180 },
  { description: 'Hotel, two nights (customer workshop)', currency: 'EUR', min: 180, max: 420 },
  { description: 'Taxi to the airport', currency: 'EUR', min: 25, max: 70 },
  { description: 'Team lunch after the release', currency: 'EUR', min: 60, max: 240 },
  { description: 'Conference ticket', currency: 'USD', min: 299, max: 899 },
  { description: 'Flight to Seattle', currency: 'USD', min: 420, max: 1100 },
  { description: 'Books on distributed systems', currency: 'GBP', min: 25, max: 90 },
  { description: 'Co-working day pass in Warsaw', currency: 'PLN', min: 60, max: 150 },
  { description: 'Client dinner', currency: 'CHF', min: 120, max: 380 },
  { description: 'Mobile data while travelling', currency: 'EUR', min: 10, max: 40 },
];

/** Six to twelve claims over the last 120 days, oldest first. */
export function expensePlan(
  random: () => number,
  now: Date,
): { amount: number; currency: string; description: string; submittedAt: string }[] {
  const count = 6 + Math.floor(random() * 7);
  const claims = Array.from({ length: count }, () => {
    const kind = pick(random, CLAIMS);
    const daysAgo = 1 + random() * 119;
    return {
      amount: Math.round((kind.min + random() * (kind.max - kind.min)) * 100) / 100,
      currency: kind.currency,
      description: kind.description,
      submittedAt: new Date(now.getTime() - daysAgo * 86_400_000).toISOString(),
    };
  });
  return claims.sort((a, b) => a.submittedAt.localeCompare(b.submittedAt));
}

/** A year of message counts: each past day of this year but the last two, then those by hour. */
export interface MessagePlan {
  /** Day of the year (0 = 1 January) and its count. */
  days: { day: number; count: number }[];
  /** Yesterday and today (UTC dates) with 24 hourly counts each. */
  recent: { date: string; hours: number[] }[];
}

/** How busy a person is: some write many messages, some few (from their id, so it is stable). */
function busyness(employeeId: string): number {
  return 0.5 + (Number(employeeId) % 5) * 0.25;
}

/** The message plan of one employee up to `now`. */
export function messagePlan(random: () => number, now: Date, employeeId: string): MessagePlan {
  const scale = busyness(employeeId);
  const year = now.getUTCFullYear();
  const today = Math.floor(
    (Date.UTC(year, now.getUTCMonth(), now.getUTCDate()) - Date.UTC(year, 0, 1)) / 86_400_000,
  );
  const days: MessagePlan['days'] = [];
  for (let day = 0; day < today - 1; day++) {
    const weekday = new Date(Date.UTC(year, 0, 1 + day)).getUTCDay();
    const weekend = weekday === 0 || weekday === 6;
    // A quieter August and end of December, like most offices.
    const month = new Date(Date.UTC(year, 0, 1 + day)).getUTCMonth();
    const season = month === 7 ? 0.45 : month === 11 && day > 350 ? 0.3 : 1;
    const away = random() < 0.04; // a day off now and then
    const base = weekend ? random() * 4 : 14 + random() * 46;
    days.push({ day, count: away ? 0 : Math.round(base * scale * season) });
  }
  const recent = [1, 0].map((back) => {
    const date = new Date(now.getTime() - back * 86_400_000).toISOString().slice(0, 10);
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    const weekend = weekday === 0 || weekday === 6;
    const hours = Array.from({ length: 24 }, (_, hour) => {
      const working = hour >= 7 && hour <= 18;
      const peak = hour === 9 || hour === 10 || hour === 14 || hour === 15;
      const base = weekend
        ? working
          ? random() * 2
          : 0
        : working
          ? 2 + random() * (peak ? 9 : 5)
          : random() < 0.15
            ? 1
            : 0;
      return Math.round(base * scale);
    });
    return { date, hours };
  });
  return { days, recent };
}

const PAGES = [
  '/',
  '/directory',
  '/directory/search',
  '/people/card',
  '/expenses/new',
  '/expenses',
  '/help',
];

/** Web log lines between `from` and `to`: requests, a few slow ones, a rare error. */
export function logLines(
  random: () => number,
  from: Date,
  to: Date,
  people: readonly SeedPerson[],
): { at: string; level: string; message: string; [extra: string]: unknown }[] {
  const span = to.getTime() - from.getTime();
  if (span <= 0) return [];
  const count = Math.max(1, Math.round((span / 3_600_000) * 48));
  const lines = Array.from({ length: count }, () => {
    const at = new Date(from.getTime() + random() * span);
    const who = pick(random, people);
    const page = pick(random, PAGES);
    const roll = random();
    const ms = Math.round(20 + random() * 180);
    if (roll < 0.03)
      return {
        at: at.toISOString(),
        level: 'Error',
        message: `GET ${page} failed: upstream timed out after 30 s`,
        user: who.email,
      };
    if (roll < 0.12)
      return {
        at: at.toISOString(),
        level: 'Warning',
        message: `GET ${page} took ${ms * 12} ms (slow)`,
        user: who.email,
      };
    return {
      at: at.toISOString(),
      level: 'Information',
      message: `GET ${page} 200 in ${ms} ms`,
      user: who.email,
    };
  });
  return lines.sort((a, b) => a.at.localeCompare(b.at));
}
