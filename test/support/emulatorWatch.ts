/**
 * Watches the run's emulators. One that dies mid-run would fail every later test with
 * ECONNREFUSED, burying its cause under thousands of failures; so its death is told at once and
 * again at the very end of the output (where CI logs are read), with what it last wrote to stderr,
 * and it is started again on the same ports (empty: the tests in flight fail, the later ones run).
 * The run fails all the same: the global teardown throws when any emulator died.
 */
import { startAzurite, type AzuriteOptions, type RunningAzurite } from '../../tools/azurite';

/** An emulator that exited while tests used it. */
export interface EmulatorDeath {
  name: string;
  at: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  stderrTail: string;
}

/** Restarts per emulator before giving up on it (a crash loop is not worth chasing). */
const MAX_RESTARTS = 3;

/** The run's emulators, each kept running until `stop()`. */
export class EmulatorWatch {
  readonly deaths: EmulatorDeath[] = [];
  readonly #running = new Map<string, RunningAzurite>();
  #stopping = false;

  /** @param say - where a death is told as it happens (stderr; a test of the watch keeps it). */
  constructor(
    private readonly say: (text: string) => void = (text) => process.stderr.write(text),
  ) {}

  /**
   * Starts one emulator under watch.
   *
   * @throws {Error} when it does not start (tools/azurite.ts).
   */
  async start(name: string, options: AzuriteOptions = {}): Promise<RunningAzurite> {
    const azurite = await startAzurite({ ...options, keepStderrTail: true });
    this.#watch(name, { ...options, ports: azurite.ports }, azurite, 0);
    return azurite;
  }

  #watch(name: string, options: AzuriteOptions, azurite: RunningAzurite, restarts: number): void {
    this.#running.set(name, azurite);
    azurite.process.once('exit', (code, signal) => {
      if (this.#stopping) return;
      const death = {
        name,
        at: new Date().toISOString(),
        code,
        signal,
        stderrTail: azurite.stderrTail(),
      };
      this.deaths.push(death);
      this.say(describeDeath(death));
      if (restarts >= MAX_RESTARTS) return;
      startAzurite({ ...options, keepStderrTail: true }).then(
        (again) => {
          if (this.#stopping) void again.stop();
          else this.#watch(name, options, again, restarts + 1);
        },
        (error: unknown) => this.say(`${name} emulator did not restart: ${error}\n`),
      );
    });
  }

  /** Stops every emulator; exits from here on are expected. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await Promise.all([...this.#running.values()].map((azurite) => azurite.stop()));
  }
}

/** What the output says of a death, first when it happens and again at the end of the run. */
export function describeDeath(death: EmulatorDeath): string {
  const how = death.signal ? `signal ${death.signal}` : `exit code ${death.code}`;
  const said = death.stderrTail
    ? `Its last stderr lines:\n${death.stderrTail}`
    : 'It wrote nothing.';
  return (
    `\n!! The ${death.name} emulator (Azurite) died during the test run at ${death.at} (${how}).\n` +
    `!! Tests using it then fail with ECONNREFUSED; it was started again, empty.\n${said}\n`
  );
}
