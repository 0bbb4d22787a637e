import path from 'node:path';
import {
  AuthSettingsError,
  parseAuthSettings,
  readAuthSettings,
  withOverride,
} from '../../../../tools/easyauth/settings';

const ROOT = path.resolve(__dirname, '../../../..');

describe('authentication settings', () => {
  it('reads the deployment’s file', () => {
    const settings = readAuthSettings(ROOT);
    expect(settings.platform.enabled).toBe(true);
    expect(settings.globalValidation).toEqual({
      requireAuthentication: true,
      unauthenticatedClientAction: 'Return401',
      excludedPaths: expect.arrayContaining(['/api/health', '/api/console/*']),
    });
    expect(settings.login.tokenStore.enabled).toBe(false);
  });

  it('takes App Service’s defaults where the file is silent', () => {
    expect(parseAuthSettings({ platform: { enabled: true } })).toEqual({
      platform: { enabled: true },
      globalValidation: {
        requireAuthentication: false,
        unauthenticatedClientAction: 'RedirectToLoginPage',
        excludedPaths: [],
      },
      login: { tokenStore: { enabled: false } },
    });
  });

  it.each([
    [{}, /platform/],
    [{ platform: { enabled: 'yes' } }, /platform\.enabled/],
    [
      {
        platform: { enabled: true },
        globalValidation: { unauthenticatedClientAction: 'Return402' },
      },
      /unauthenticatedClientAction/,
    ],
    [
      { platform: { enabled: true }, globalValidation: { excludedPaths: ['api/health'] } },
      /excludedPaths\.0/,
    ],
    [
      { platform: { enabled: true }, globalValidation: { excludedPaths: ['/api/health?x=1'] } },
      /excludedPaths\.0/,
    ],
  ])('refuses %j naming the setting', (value, message) => {
    expect(() => parseAuthSettings(value)).toThrow(AuthSettingsError);
    expect(() => parseAuthSettings(value)).toThrow(message);
  });

  it('applies an override section by section, replacing the excluded paths', () => {
    const base = readAuthSettings(ROOT);
    const changed = withOverride(base, {
      globalValidation: { excludedPaths: ['/x'] },
      login: { tokenStore: { enabled: true } },
    });
    expect(changed.globalValidation).toEqual({ ...base.globalValidation, excludedPaths: ['/x'] });
    expect(changed.login.tokenStore.enabled).toBe(true);
    expect(changed.platform).toEqual(base.platform);
    expect(withOverride(base)).toEqual(base);
  });
});
