/**
 * Fills a running app (`npm start`) with the sample organisation through its own HTTP API, as a
 * client would: departments, employees (imported in bulk), managers, avatars (PNG), reviews,
 * expense claims, message statistics and log lines. Idempotent: each step first reads what is
 * there and writes only what is missing, so a second run changes nothing (and a run on a later
 * day only adds that day's message counts and log lines).
 *
 * It signs its requests with hand-made principals, which only a local host believes
 * (`TRUST_LOCAL_PRINCIPAL_HEADER`, on by default for `npm start` on loopback).
 */
import { avatarPng, hashSeed } from './avatar';
import {
  DEPARTMENTS,
  seededRandom,
  seedPeople,
  type SeedDepartment,
  type SeedPerson,
} from './people';
import { expensePlan, logLines, messagePlan, reviewFor } from './activity';
import { apiCaller, inPool, TELEMETRY, type Call } from './api';

/** What `seedDirectory` did, step by step. */
export interface SeedReport {
  departments: number;
  employeesCreated: number;
  photosUploaded: number;
  reviewsWritten: number;
  expensesAdded: number;
  messageCountsPosted: number;
  logLinesPosted: number;
}

/** What to seed (the defaults are the sample organisation; tests seed a small one). */
export interface SeedOptions {
  /** The departments and their sizes (default {@link DEPARTMENTS}). */
  departments?: readonly SeedDepartment[];
  /** Employees per department whose reviews and expenses the seed fills in (default 8). */
  activePerDepartment?: number;
  /**
   * Of those, the first ones whose year of message counts it fills in (default 2): one request
   * per day each (the API counts messages as they come), so a few people, not everybody.
   */
  chattyPerDepartment?: number;
  /** The log source of the web log lines (default `web`). */
  logSource?: string;
  /** How many of this year's past days get message counts (default all of them). */
  messageDays?: number;
  /** The time the plan is made for (default: the run's start); log lines after it wait. */
  now?: Date;
}

/** One seed run: the app, the plan, and what it did so far. */
interface SeedRun {
  call: Call;
  say: (line: string) => void;
  report: SeedReport;
  departments: readonly SeedDepartment[];
  people: SeedPerson[];
  options: SeedOptions;
}

const seg = encodeURIComponent;

/**
 * Seeds the app at `baseUrl` (`http://localhost:7071/api`); `say` reports progress.
 *
 * @throws {SeedError} when the app cannot be reached or refuses a write (its message says why).
 */
export async function seedDirectory(
  baseUrl: string,
  say: (line: string) => void = () => undefined,
  options: SeedOptions = {},
): Promise<SeedReport> {
  const departments = options.departments ?? DEPARTMENTS;
  const run: SeedRun = {
    call: apiCaller(baseUrl),
    say,
    report: {
      departments: 0,
      employeesCreated: 0,
      photosUploaded: 0,
      reviewsWritten: 0,
      expensesAdded: 0,
      messageCountsPosted: 0,
      logLinesPosted: 0,
    },
    departments,
    people: seedPeople(departments),
    options,
  };
  await run.call('GET', '/health', { ok: [503] });
  await seedDepartments(run);
  const photoOf = await seedEmployees(run);
  await seedManagers(run);
  await seedPhotos(run, photoOf);
  const now = options.now ?? new Date();
  await seedActivity(run, now);
  await seedLogLines(run, now);
  return run.report;
}

/** 1. Departments (PUT is idempotent). */
async function seedDepartments({ call, say, report, departments }: SeedRun): Promise<void> {
  for (const d of departments) {
    await call('PUT', `/departments/${seg(d.name)}`, { json: { description: d.description } });
    report.departments++;
  }
  say(`Departments: ${report.departments}.`);
}

/**
 * 2. Employees: imports whoever is missing, a department at a time.
 *
 * @returns whether each employee listed before the import has a photo (by `Dept/id`).
 */
async function seedEmployees(run: SeedRun): Promise<Map<string, boolean>> {
  const { call, say, report, departments, people } = run;
  const photoOf = new Map<string, boolean>();
  for (const d of departments) {
    const listed = (await call(
      'GET',
      `/departments/${seg(d.name)}/employees?pageSize=1000&select=photoUrl`,
    )) as {
      items: { employeeId: string; photoUrl?: string }[];
    };
    for (const e of listed.items) photoOf.set(`${d.name}/${e.employeeId}`, Boolean(e.photoUrl));
    const missing = people.filter(
      (p) => p.department === d.name && !photoOf.has(`${d.name}/${p.employeeId}`),
    );
    if (missing.length === 0) continue;
    const result = (await call('POST', `/departments/${seg(d.name)}/employees/import`, {
      json: {
        employees: missing.map(({ employeeId, firstName, lastName, email, age }) => ({
          employeeId,
          firstName,
          lastName,
          email,
          age,
        })),
      },
    })) as { created: number; failed: { employeeId: string; error: { message: string } }[] };
    report.employeesCreated += result.created;
    for (const f of result.failed)
      say(`  ${d.name}/${f.employeeId} not created: ${f.error.message}`);
  }
  say(`Employees: ${people.length} in the plan, ${report.employeesCreated} created now.`);
  return photoOf;
}

/** 3. Managers: the first employee of each department. */
async function seedManagers({ call, departments }: SeedRun): Promise<void> {
  for (const d of departments) {
    await call('PUT', `/departments/${seg(d.name)}/manager`, { json: { employeeId: '000001' } });
  }
}

/** 4. Photos: a drawn avatar for everyone without a photo. */
async function seedPhotos(run: SeedRun, photoOf: Map<string, boolean>): Promise<void> {
  const { call, say, report, people } = run;
  const withoutPhoto = people.filter((p) => !photoOf.get(`${p.department}/${p.employeeId}`));
  await inPool(withoutPhoto, 6, async (p) => {
    await call('PUT', `/departments/${seg(p.department)}/employees/${p.employeeId}/photo`, {
      raw: avatarPng(hashSeed(`${p.department}/${p.employeeId}/${p.firstName}`)),
      type: 'image/png',
    });
    report.photosUploaded++;
  });
  say(`Photos: ${report.photosUploaded} uploaded now.`);
}

/** The first `perDepartment` people of each department. */
function firstOfEach(run: SeedRun, perDepartment: number): SeedPerson[] {
  return run.departments.flatMap((d) =>
    run.people.filter((p) => p.department === d.name).slice(0, perDepartment),
  );
}

/** 5. Activity of the first employees of each department: reviews, expenses, messages. */
async function seedActivity(run: SeedRun, now: Date): Promise<void> {
  const { call, say, report, options } = run;
  await inPool(firstOfEach(run, options.activePerDepartment ?? 8), 4, async (p) => {
    const path = `/departments/${seg(p.department)}/employees/${p.employeeId}`;
    const random = seededRandom(hashSeed(path));
    for (const year of [
      now.getUTCFullYear() - 3,
      now.getUTCFullYear() - 2,
      now.getUTCFullYear() - 1,
    ]) {
      await call('PUT', `${path}/reviews/${year}`, { json: reviewFor(random) });
      report.reviewsWritten++;
    }
    const newest = (await call('GET', `${path}/expenses?top=1`)) as { items: unknown[] };
    if (newest.items.length === 0) {
      for (const claim of expensePlan(random, now)) {
        await call('POST', `${path}/expenses`, { json: claim });
        report.expensesAdded++;
      }
    }
  });
  // One employee's counts land on the same day and year entities (a wide entity): posted one
  // after the other, so they do not fight over its ETag; several employees at once.
  await inPool(firstOfEach(run, options.chattyPerDepartment ?? 2), 6, async (p) => {
    const path = `/departments/${seg(p.department)}/employees/${p.employeeId}`;
    const posted = await seedMessages(call, path, p, now, options.messageDays);
    report.messageCountsPosted += posted;
  });
  say(
    `Reviews: ${report.reviewsWritten} written; expenses: ${report.expensesAdded} added; message counts: ${report.messageCountsPosted} posted.`,
  );
}

/** The `at` of the newest log line of `source` stored in the hour from `hour`. */
async function newestLogLine(call: Call, source: string, hour: Date): Promise<string | undefined> {
  const to = new Date(hour.getTime() + 3_600_000).toISOString();
  const query = `source=${encodeURIComponent(source)}&from=${hour.toISOString()}&to=${to}`;
  let newest: string | undefined;
  let token: string | null = null;
  do {
    const more: string = token ? `&continuationToken=${encodeURIComponent(token)}` : '';
    const page = (await call('GET', `/logs?${query}&pageSize=1000${more}`)) as {
      items: { at: string }[];
      continuationToken: string | null;
    };
    newest = page.items.at(-1)?.at ?? newest;
    token = page.continuationToken;
  } while (token);
  return newest;
}

/**
 * 6. Log lines of the last three hours up to now: each hour's lines are planned whole (the same
 * plan every run); a run posts those after the newest line stored, so an hour begun in one run
 * is topped up by the next and nothing is posted twice.
 */
async function seedLogLines(run: SeedRun, now: Date): Promise<void> {
  const { call, say, report, people } = run;
  const logSource = run.options.logSource ?? 'web';
  const posted: { hour: Date; last: string }[] = [];
  for (let back = 2; back >= 0; back--) {
    const hour = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), now.getUTCHours() - back),
    );
    const stored = await newestLogLine(call, logSource, hour);
    const planned = logLines(
      seededRandom(hour.getTime() / 1000),
      hour,
      new Date(hour.getTime() + 3_600_000),
      people,
    );
    const entries = planned.filter(
      (line) =>
        Date.parse(line.at) <= now.getTime() &&
        (!stored || Date.parse(line.at) > Date.parse(stored)),
    );
    if (entries.length === 0) continue;
    await call('POST', '/logs', { json: { source: logSource, entries }, principal: TELEMETRY });
    report.logLinesPosted += entries.length;
    posted.push({ hour, last: entries.at(-1)!.at });
  }
  // Accepted lines become readable once the app's buffer flushes (seconds): wait for them, so a
  // run right after this one sees them and posts nothing twice.
  for (const deadline = Date.now() + 60_000; posted.length > 0 && Date.now() < deadline;) {
    const newest = await newestLogLine(call, logSource, posted[0]!.hour);
    if (newest && Date.parse(newest) >= Date.parse(posted[0]!.last)) posted.shift();
    else await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (posted.length > 0)
    say('  (some log lines are not readable yet: the app has not flushed them)');
  say(`Log lines: ${report.logLinesPosted} posted.`);
}

/**
 * Posts the message counts this employee's plan has and storage has not: a count per past day of
 * this year (days with none so far), and per hour of yesterday and today up to now.
 */
async function seedMessages(
  call: Call,
  path: string,
  person: SeedPerson,
  now: Date,
  messageDays = 366,
): Promise<number> {
  const plan = messagePlan(seededRandom(hashSeed(`${path}/messages`)), now, person.employeeId);
  const year = now.getUTCFullYear();
  const stored = (await call('GET', `${path}/messages/daily?year=${year}`)) as { days: number[] };
  const posts: { at: Date; count: number }[] = [];
  for (const { day, count } of plan.days.slice(-messageDays)) {
    if (count > 0 && (stored.days[day] ?? 0) === 0)
      posts.push({ at: new Date(Date.UTC(year, 0, 1 + day, 12)), count });
  }
  for (const { date, hours } of plan.recent) {
    const stored24 = (await call('GET', `${path}/messages/hourly?day=${date}`)) as {
      hours: number[];
    };
    for (const [hour, count] of hours.entries()) {
      const at = new Date(`${date}T${String(hour).padStart(2, '0')}:30:00Z`);
      if (count > 0 && at <= now && (stored24.hours[hour] ?? 0) === 0) posts.push({ at, count });
    }
  }
  for (const { at, count } of posts) {
    await call('POST', `${path}/messages`, {
      json: { at: at.toISOString(), count },
      principal: TELEMETRY,
    });
  }
  return posts.length;
}
