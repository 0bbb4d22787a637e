/**
 * Message statistics (data series + wide entity), API.md "Message statistics":
 * `POST /departments/{dept}/employees/{id}/messages` (increment hour and day counters together),
 * `GET .../messages/hourly?day=YYYY-MM-DD` (one point read) and
 * `GET .../messages/daily?year=YYYY` (two point reads).
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { z } from 'zod';
import { MAX_MESSAGE_COUNT } from '../src/stats/messageStats';
import { formatUtcDay } from '../src/time/instants';
import { json, readJson, readParams, readQuery } from './shared/http';
import { anyOf, self, telemetryWriter } from '../src/identity/access';
import { protectedRoute } from './shared/route';
import { employeeRoute, instant, queryInt, utcDay } from './shared/input';

const hourlyQuery = z.object({ day: utcDay });
const dailyQuery = z.object({ year: queryInt(1601, 9999) });

const countBody = z.strictObject({
  at: instant.optional(),
  count: z.number().int().min(1).max(MAX_MESSAGE_COUNT).optional(),
});

/** `POST .../messages` → 204 once both counters include the messages. */
export const recordMessages = protectedRoute('recordMessages', {
  route: 'departments/{dept}/employees/{id}/messages',
  methods: ['POST'],
  access: anyOf(telemetryWriter),
  schemas: {
    params: employeeRoute,
    body: countBody,
    responses: { 204: { description: 'Both counters include the messages.' } },
  },
  uses: (s) => s.messageStats(),
  handler: async ({ request, use: messageStats }) => {
    const { dept, id } = readParams(request, employeeRoute);
    const body = await readJson(request, countBody);
    await messageStats.record(dept, id, body);
    return { status: 204 };
  },
});

const count = z.number().int().min(0);
const hourlyJson = z.strictObject({ day: z.iso.date(), hours: z.array(count).length(24) });
const dailyJson = z.strictObject({
  year: z.number().int(),
  days: z.array(count).min(365).max(366),
});

/** `GET .../messages/hourly?day=YYYY-MM-DD` → `{"day","hours":[24 numbers]}`. */
export const hourlyMessages = protectedRoute('hourlyMessages', {
  route: 'departments/{dept}/employees/{id}/messages/hourly',
  methods: ['GET'],
  access: anyOf(self),
  schemas: {
    params: employeeRoute,
    query: hourlyQuery,
    responses: { 200: { description: "The day's 24 hourly counts.", body: hourlyJson } },
  },
  uses: (s) => s.messageStats(),
  handler: async ({ request, use: messageStats }) => {
    const { dept, id } = readParams(request, employeeRoute);
    const { day } = readQuery(request, hourlyQuery);
    const hours = await messageStats.hourly(dept, id, day);
    return json(200, { day: formatUtcDay(day), hours });
  },
});

/** `GET .../messages/daily?year=YYYY` → `{"year","days":[365 or 366 numbers]}`. */
export const dailyMessages = protectedRoute('dailyMessages', {
  route: 'departments/{dept}/employees/{id}/messages/daily',
  methods: ['GET'],
  access: anyOf(self),
  schemas: {
    params: employeeRoute,
    query: dailyQuery,
    responses: { 200: { description: "The year's daily counts.", body: dailyJson } },
  },
  uses: (s) => s.messageStats(),
  handler: async ({ request, use: messageStats }) => {
    const { dept, id } = readParams(request, employeeRoute);
    const { year } = readQuery(request, dailyQuery);
    const days = await messageStats.daily(dept, id, year);
    return json(200, { year, days });
  },
});
