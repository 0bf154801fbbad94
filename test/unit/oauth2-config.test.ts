/**
 * The dashboard's OAuth2 configuration (CONTRACT 19): read from the
 * environment, the endpoints beside the platform's API base, and null (sign-in
 * not set up) rather than a half configuration.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { platformOAuth2Config } from '#shared/platform/oauth2-config.js';

const NAMES = ['PLATFORM_CLIENT_ID', 'PLATFORM_CLIENT_SECRET', 'PLATFORM_CLIENT_SECRET_SECRET_ARN', 'PLATFORM_API_BASE_URL', 'PUBLIC_BASE_URL'];
let saved: Record<string, string | undefined>;

beforeEach(() => {
  saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
  for (const name of NAMES) delete process.env[name];
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('platformOAuth2Config', () => {
  it("answers the real platform's endpoints by default, and the callback under PUBLIC_BASE_URL", async () => {
    Object.assign(process.env, { PLATFORM_CLIENT_ID: '123456789012345678', PLATFORM_CLIENT_SECRET: 's3cret', PUBLIC_BASE_URL: 'https://abc.example/v1/' });
    expect(await platformOAuth2Config()).toEqual({
      clientId: '123456789012345678',
      clientSecret: 's3cret',
      authorizeUrl: 'https://discord.com/oauth2/authorize',
      tokenUrl: 'https://discord.com/api/v10/oauth2/token',
      apiBaseUrl: 'https://discord.com/api/v10',
      redirectUri: 'https://abc.example/v1/dashboard/callback',
    });
  });

  it('finds the endpoints beside a configured API base', async () => {
    Object.assign(process.env, { PLATFORM_CLIENT_ID: '1', PLATFORM_CLIENT_SECRET: 's', PLATFORM_API_BASE_URL: 'http://127.0.0.1:3001/api/v10/' });
    expect(await platformOAuth2Config()).toMatchObject({
      authorizeUrl: 'http://127.0.0.1:3001/oauth2/authorize',
      tokenUrl: 'http://127.0.0.1:3001/api/v10/oauth2/token',
    });
  });

  it('is null without a client ID, without a secret, or with an API base that is not a URL', async () => {
    process.env.PLATFORM_CLIENT_SECRET = 's';
    expect(await platformOAuth2Config()).toBeNull();
    process.env.PLATFORM_CLIENT_ID = '1';
    delete process.env.PLATFORM_CLIENT_SECRET;
    expect(await platformOAuth2Config()).toBeNull();
    process.env.PLATFORM_CLIENT_SECRET = 's';
    process.env.PLATFORM_API_BASE_URL = 'not a url';
    expect(await platformOAuth2Config()).toBeNull();
  });
});
