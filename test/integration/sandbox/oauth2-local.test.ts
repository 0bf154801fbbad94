/**
 * Local mode registers the service as the sandbox's OAuth2 application
 * (CONTRACT 19): the client ID and generated secret the service reads
 * (`platformOAuth2Config`, from PLATFORM_CLIENT_ID / PLATFORM_CLIENT_SECRET)
 * are the ones the sandbox accepts, its endpoints are the sandbox's, and the
 * redirect URI it will send is registered, so a member signs in with what
 * the service is configured with and nothing else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformOAuth2Config } from '#shared/platform/oauth2-config.js';
import { type TestService, startTestService } from '#test/helpers/local.js';
import { memberTokens } from '#test/helpers/oauth2.js';

const MEMBER = '400000000000000071';

let service: TestService;
let origin: string;

beforeAll(async () => {
  service = await startTestService();
  origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
});
afterAll(() => service.stop());

describe('local mode and the sandbox agree on the OAuth2 application', () => {
  it('gives the service the client the sandbox registered, its endpoints and a registered redirect URI', async () => {
    const config = await platformOAuth2Config();
    const registered = (await (await fetch(`${origin}/_sandbox/application/oauth2`)).json()) as { client_id: string; redirect_uris: string[] };
    expect(config).toEqual({
      clientId: registered.client_id,
      clientSecret: expect.stringMatching(/.{20,}/),
      authorizeUrl: `${origin}/oauth2/authorize`,
      tokenUrl: `${service.sandboxUrl}/oauth2/token`,
      apiBaseUrl: service.sandboxUrl,
      redirectUri: `${service.url}/dashboard/callback`,
    });
    expect(service.platformClientId).toBe(registered.client_id);
    expect(registered.redirect_uris).toEqual([`${service.url}/dashboard/callback`, `${service.url}/v1/dashboard/callback`]);
    expect(service.oauth2RedirectUris).toEqual(registered.redirect_uris);
  });

  it('signs a member in with the configured secret, and refuses another', async () => {
    const config = (await platformOAuth2Config())!;
    const tokens = await memberTokens({
      origin,
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      redirectUri: config.redirectUri,
      userId: MEMBER,
    });
    const me = await fetch(`${config.apiBaseUrl}/users/@me`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(((await me.json()) as { id: string }).id).toBe(MEMBER);
    await expect(
      memberTokens({ origin, clientId: config.clientId, clientSecret: `${config.clientSecret}x`, redirectUri: config.redirectUri, userId: MEMBER }),
    ).rejects.toThrow(/401/);
  });
});
