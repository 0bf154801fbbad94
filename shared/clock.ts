/**
 * The time rate limits are reckoned in. In Lambda it is the system clock;
 * local mode's tests move it forward (with the sandbox platform, which
 * reckons its rate limits in the same clock) to see a ten-minute rename
 * window pass without waiting ten minutes.
 */
let offsetMs = 0;

/** Epoch milliseconds, moved forward by {@link moveClockForward}. */
export function clockNow(): number {
  return Date.now() + offsetMs;
}

/** Moves the clock forward (tests and local mode only; nothing in AWS calls it). */
export function moveClockForward(ms: number): void {
  offsetMs += ms;
}
