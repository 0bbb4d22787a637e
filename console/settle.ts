/**
 * How every action of the console ends: the page shows the stored truth. The router draws the view
 * again — every view reads what it shows from the API when drawn, and offers only what still
 * applies to it — at the route where the thing now lives (the card in the target department after
 * a move), with the action's message above it. No form patches the page it sits on.
 */
import { href, type Route } from './routes';

let redraw: () => void = () => undefined;
let pending: string | undefined;

/** Sets how the current view is drawn again (main.ts: the router). */
export function onRedraw(draw: () => void): void {
  redraw = draw;
}

/**
 * Ends a successful action: `message` shows above the view drawn afresh at `where` (default: the
 * current URL, read again).
 */
export function settled(message: string, where?: Route): void {
  pending = message;
  const target = where ? href(where) : undefined;
  // A new fragment draws through the router's hashchange listener; the same one is drawn here.
  if (target !== undefined && target !== location.hash) location.hash = target;
  else redraw();
}

/** The message of the action that led to this drawing, once. */
export function takeNotice(): string | undefined {
  const message = pending;
  pending = undefined;
  return message;
}
