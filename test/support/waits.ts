/**
 * How long a test waits for something that happens eventually (a queue trigger's work, an
 * orchestration's end, a host's start, a span's export): a hang detector, not a speed goal. It is
 * set several times above the slowest run seen on a loaded 2-core machine (a department archive
 * through the host ending after about a minute, load average 20), so a slow day never decides a
 * verdict; jest's own test timeout (jest.config.js, 3 minutes) sits above it. Tests that prove
 * something about time itself (a deadline, a schedule) pass their own.
 */
export const WAIT_MS = 120_000;
