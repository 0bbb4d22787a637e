import {
  isOwnOrigin,
  isUnsafeMethod,
  mediaTypeMatches,
} from '../../../functions/shared/requestGuards';

describe('which requests count as cross-site writes', () => {
  it('treats POST, PUT, PATCH and DELETE as unsafe, in any case', () => {
    expect(['POST', 'put', 'Patch', 'DELETE'].every(isUnsafeMethod)).toBe(true);
    expect(['GET', 'HEAD', 'OPTIONS'].some(isUnsafeMethod)).toBe(false);
  });

  it.each([
    ['http://localhost:7071', 'http://localhost:7071/api/x', true],
    // Behind App Service's front ends the worker may see http for an https request.
    ['https://app.azurewebsites.net', 'http://app.azurewebsites.net/api/x', true],
    ['https://APP.azurewebsites.net', 'https://app.azurewebsites.net/api/x', true],
    ['http://localhost:7072', 'http://localhost:7071/api/x', false],
    ['http://127.0.0.1:7071', 'http://localhost:7071/api/x', false],
    ['https://app.azurewebsites.net.evil.test', 'https://app.azurewebsites.net/api/x', false],
    ['https://other.azurewebsites.net', 'https://app.azurewebsites.net/api/x', false],
    ['null', 'http://localhost:7071/api/x', false],
    ['NULL ', 'http://localhost:7071/api/x', false],
    ['not a url', 'http://localhost:7071/api/x', false],
    ['', 'http://localhost:7071/api/x', false],
  ])('Origin %s for %s is the app’s own: %s', (origin, url, own) => {
    expect(isOwnOrigin(origin, url)).toBe(own);
  });

  it.each([
    ['application/json', ['application/json'], true],
    ['image/png', ['application/json', 'image/*'], true],
    ['image/svg+xml', ['image/*'], true], // the photo service refuses svg itself, by content
    ['imagex/png', ['image/*'], false],
    ['text/plain', ['application/json'], false],
    ['application/json-seq', ['application/json'], false],
  ])('media type %s against %j: %s', (type, accepted, matches) => {
    expect(mediaTypeMatches(type, accepted)).toBe(matches);
  });
});
