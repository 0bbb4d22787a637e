import { ValidationError } from '../../../src/domainErrors';
import { sasWindow } from '../../../src/sas/lifetime';
import { CLOCK_SKEW_MS } from '../../../src/storage/blobSas';

const limits = { defaultMinutes: 15, maxMinutes: 60 };
const now = new Date('2026-11-22T10:00:00.750Z');

describe('SAS lifetime', () => {
  it('defaults to the configured lifetime and starts a few minutes back for clock skew', () => {
    const window = sasWindow(now, undefined, limits);
    expect(window.expiresOn.toISOString()).toBe('2026-11-22T10:15:00.000Z');
    expect(window.startsOn.getTime()).toBe(Date.parse('2026-11-22T10:00:00Z') - CLOCK_SKEW_MS);
  });

  it('honours a requested lifetime up to the cap, in whole seconds', () => {
    expect(sasWindow(now, 60, limits).expiresOn.toISOString()).toBe('2026-11-22T11:00:00.000Z');
    expect(sasWindow(now, 1, limits).expiresOn.toISOString()).toBe('2026-11-22T10:01:00.000Z');
  });

  it('refuses a lifetime above the cap with a message naming the cap', () => {
    expect(() => sasWindow(now, 61, limits)).toThrow(ValidationError);
    expect(() => sasWindow(now, 61, limits)).toThrow(/at most 60 minutes/);
    try {
      sasWindow(now, 61, limits);
    } catch (error) {
      expect((error as ValidationError).code).toBe('SasLifetimeTooLong');
    }
  });

  // Storage (and the account's SAS expiration policy, set to the cap) measures se − st: the
  // backdating is counted inside the cap, so no token is valid for longer than the cap.
  it.each([1, 15, 54, 55, 56, 59, 60])(
    'keeps se − st of a %i-minute token within the 60-minute cap, and se at now + lifetime',
    (minutes) => {
      const window = sasWindow(now, minutes, limits);
      const issued = Date.parse('2026-11-22T10:00:00Z');
      expect(window.expiresOn.getTime()).toBe(issued + minutes * 60_000);
      expect(window.expiresOn.getTime() - window.startsOn.getTime()).toBeLessThanOrEqual(
        60 * 60_000,
      );
      // As far back as the cap leaves room for, at most the clock-skew margin.
      expect(issued - window.startsOn.getTime()).toBe(
        Math.min(CLOCK_SKEW_MS, (60 - minutes) * 60_000),
      );
    },
  );

  it('starts a token of the longest lifetime at its issue, valid exactly the cap', () => {
    const window = sasWindow(now, 60, limits);
    expect(window.startsOn.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(window.expiresOn.getTime() - window.startsOn.getTime()).toBe(60 * 60_000);
  });

  it.each([0, -5, 1.5, Number.NaN])('refuses a lifetime of %p minutes', (minutes) => {
    expect(() => sasWindow(now, minutes, limits)).toThrow(ValidationError);
  });
});
