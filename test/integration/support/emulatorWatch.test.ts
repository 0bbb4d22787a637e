/**
 * The test run's emulator watch (test/support/emulatorWatch.ts): an emulator that dies mid-run is
 * reported with how it died and what it last wrote, and serves again on the same ports.
 */
import { isListening } from '../../../tools/azurite';
import { EmulatorWatch, describeDeath } from '../../support/emulatorWatch';
import { WAIT_MS } from '../../support/waits';

let watch: EmulatorWatch;

/** Polls `probe` until it gives a value (or fails the test after WAIT_MS). */
async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('Never happened.');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
afterEach(() => watch.stop());

it('reports an emulator killed mid-run and starts it again on the same ports', async () => {
  const told: string[] = [];
  watch = new EmulatorWatch((text) => told.push(text));
  const first = await watch.start('probe');
  first.process.kill('SIGKILL');

  const death = await until(async () => watch.deaths[0]);
  expect(death).toMatchObject({ name: 'probe', code: null, signal: 'SIGKILL' });
  expect(describeDeath(death)).toContain('The probe emulator (Azurite) died');
  expect(describeDeath(death)).toContain('signal SIGKILL');
  expect(told).toEqual([describeDeath(death)]);
  await until(async () =>
    (await Promise.all(Object.values(first.ports).map((port) => isListening(port)))).every(Boolean)
      ? true
      : undefined,
  );
});

it('takes a stop as expected, not as a death', async () => {
  watch = new EmulatorWatch();
  await watch.start('quiet');
  await watch.stop();
  expect(watch.deaths).toEqual([]);
});
