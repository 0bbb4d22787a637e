/**
 * What the Functions host refuses, the local host refuses at startup with a clear message and
 * exit code 1, instead of running an app that would break once deployed.
 */
import { startHostApp } from './hostApp';

async function refusal(scenario: string, env: Record<string, string> = {}): Promise<string> {
  try {
    const app = await startHostApp({ HOSTAPP_SCENARIO: scenario, ...env });
    await app.host.stop();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`The host started with scenario ${scenario}.`);
}

test('two functions with the same route and an overlapping method', async () => {
  const message = await refusal('duplicateRoute');
  expect(message).toMatch(/Host startup failed/);
  expect(message).toMatch(
    /Function 'secondOwner': the route '\/Shared\/\{id\}\/' \[POST\] conflicts with the route defined by function 'firstOwner'/,
  );
});

test('a function name starting with "admin"', async () => {
  expect(await refusal('adminName')).toMatch(
    /Function 'adminPanel': function names starting with 'admin' are reserved/,
  );
});

test('a route starting with "admin"', async () => {
  expect(await refusal('adminRoute')).toMatch(
    /Function 'panel': the route 'admin\/panel' conflicts with the host's built-in routes/,
  );
});

test('function names that differ only in case', async () => {
  expect(await refusal('duplicateNameIgnoringCase')).toMatch(
    /The function name 'Report' must be unique/,
  );
});

test('a timer schedule NCRONTAB refuses (weekday 7), naming the function', async () => {
  expect(await refusal('badSchedule')).toMatch(
    /Function 'sundaySevenTimer': The schedule expression '0 0 0 \* \* 7' was not recognized .*range 0-6/,
  );
});

test('an invalid queue name', async () => {
  expect(await refusal('badQueueName')).toMatch(
    /Function 'badQueue': "bad_queue" is not a valid queue name/,
  );
});

test('a binding expression naming a setting that is not set', async () => {
  expect(await refusal('none', { HOSTAPP_ECHO_QUEUE: '' })).toMatch(
    /Function 'echoQueue': '%HOSTAPP_ECHO_QUEUE%' does not resolve to a value/,
  );
});

test('an entry point that throws while loading', async () => {
  const message = await refusal('loadError');
  expect(message).toMatch(
    /Worker was unable to load entry point "functions\/refusals\.ts": the entry point failed while loading/,
  );
});

test('every problem is listed at once', async () => {
  const message = await refusal('adminRoute', {
    HOSTAPP_ECHO_QUEUE: '',
    HOSTAPP_TIMER_SCHEDULE: 'every minute',
  });
  expect(message).toMatch(/cannot start:/);
  expect(message).toMatch(/'panel'/);
  expect(message).toMatch(/'echoQueue'/);
  expect(message).toMatch(/'fixtureTimer'/);
});
