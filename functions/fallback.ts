/**
 * What no route takes (API.md "Conventions"): a known path with another method is 405 with
 * `Allow`, an unknown path 404, both with the API's JSON error body.
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { errorBody, json } from './shared/http';
import { allowedMethods, fallbackRoute } from './shared/route';

fallbackRoute(async (request) => {
  const path = request.params.path ?? '';
  const allowed = allowedMethods(path);
  const shown = new URL(request.url).pathname;
  if (allowed.length > 0) {
    return json(
      405,
      errorBody(
        'MethodNotAllowed',
        `${request.method} is not accepted at ${shown}: use ${allowed.join(', ')}.`,
      ),
      { allow: allowed.join(', ') },
    );
  }
  return json(404, errorBody('NotFound', `No route matches ${request.method} ${shown}.`));
});
