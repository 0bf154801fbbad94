import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeFromDist } from '#infra/stacks/service-stack.js';
import type { Route } from '#shared/http/route.js';
import { nagFindings, resourcesOfType, synthService, templatesOf } from './helpers.js';

const routes: Record<string, Route[]> = {
  tags: [
    { id: 'tags.home', method: 'GET', path: '/modules/tags/', access: 'public', file: 'functions/module-state/home.ts', summary: 'home' },
    { id: 'tags.status', method: 'GET', path: '/modules/tags/status', access: 'client', file: 'functions/module-state/status.ts', summary: 'status' },
  ],
};
const SERVICE_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:service-token-AbCdEf';
const BOT_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:bot-token-AbCdEf';
const CURSOR_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:cursor-key-AbCdEf';

describe('operator settings', () => {
  it('reads throttling, the guild key rate and the platform URL from CDK context', () => {
    const synth = synthService(routes, {
      context: { throttleRateLimit: '30', throttleBurstLimit: '60', guildKeyRate: '4', platformApiBaseUrl: 'http://127.0.0.1:9999/api/v10' },
    });
    const templates = templatesOf(synth);
    const stage = resourcesOfType(templates, 'AWS::ApiGateway::Stage')[0]!;
    const home = stage.properties.MethodSettings.find((s: any) => s.ResourcePath === '/~1modules~1tags');
    expect(home).toMatchObject({ HttpMethod: 'GET', ThrottlingRateLimit: 30, ThrottlingBurstLimit: 60 });
    const plans = resourcesOfType(templates, 'AWS::ApiGateway::UsagePlan').map((p) => [p.properties.UsagePlanName, p.properties.Throttle]);
    expect(plans).toEqual(
      expect.arrayContaining([
        ['Service-service', { RateLimit: 30, BurstLimit: 60 }],
        ['Service-guild-keys', { RateLimit: 4, BurstLimit: 8 }],
      ]),
    );
    const throttled = resourcesOfType(templates, 'AWS::ApiGateway::GatewayResponse').find((r) => r.properties.ResponseType === 'THROTTLED')!;
    expect(throttled.properties.ResponseTemplates['application/json']).toContain(
      'Each guild API key may send 4 requests a second (bursts of 8), the service token and each public route 30 (bursts of 60)',
    );
    const fn = resourcesOfType(templates, 'AWS::Lambda::Function').find((f) => String(f.properties.Description).startsWith('tags.status:'))!;
    expect(fn.properties.Environment.Variables.PLATFORM_API_BASE_URL).toBe('http://127.0.0.1:9999/api/v10');
    // The file's first synthesis loads the CDK libraries: over 30 s on a busy machine.
  }, 120_000);

  it('lets props win over context', () => {
    const synth = synthService(routes, { context: { throttleRateLimit: '10', guildKeyRate: '3' }, settings: { throttleRateLimit: 7, guildKeyRate: 2 } });
    const plans = resourcesOfType(templatesOf(synth), 'AWS::ApiGateway::UsagePlan').map((p) => p.properties.Throttle.RateLimit);
    expect(plans.sort()).toEqual([2, 7]);
  });

  it('uses given secrets instead of creating them, passing ARNs (never values) to functions', () => {
    const synth = synthService(routes, { settings: { serviceTokenSecretArn: SERVICE_ARN, platformBotTokenSecretArn: BOT_ARN, cursorSecretArn: CURSOR_ARN } });
    const templates = templatesOf(synth);
    expect(resourcesOfType(templates, 'AWS::SecretsManager::Secret')).toHaveLength(0);
    const functions = resourcesOfType(templates, 'AWS::Lambda::Function');
    const authorizer = functions.find((f) => f.stack === synth.stack)!;
    expect(authorizer.properties.Environment.Variables.SERVICE_TOKEN_SECRET_ARN).toBe(SERVICE_ARN);
    const route = functions.find((f) => String(f.properties.Description).startsWith('tags.status:'))!;
    expect(route.properties.Environment.Variables.PLATFORM_BOT_TOKEN_SECRET_ARN).toBe(BOT_ARN);
    expect(route.properties.Environment.Variables.CURSOR_SECRET_SECRET_ARN).toBe(CURSOR_ARN);
    expect(route.properties.Environment.Variables).not.toHaveProperty('PLATFORM_BOT_TOKEN');
    expect(route.properties.Environment.Variables).not.toHaveProperty('CURSOR_SECRET');
    expect(nagFindings(synth.app)).toEqual([]);
  });

  it("gives every function the operator's plain settings, and the ARNs of named secrets, with read access, to the socials module alone", () => {
    const STREAM_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:stream-token-AbCdEf';
    const socials: Route = {
      id: 'socials.status',
      method: 'GET',
      path: '/modules/socials/status',
      access: 'client',
      file: 'functions/module-state/status.ts',
      summary: 'status',
    };
    const synth = synthService(
      { ...routes, socials: [socials] },
      {
        context: {
          functionEnvironment: JSON.stringify({ PUBLIC_BASE_URL: 'https://bot.example.org', SOCIALS_POLL_SECONDS: '120' }),
          functionSecretArns: { STREAM_API_TOKEN: STREAM_ARN },
        },
      },
    );
    const templates = templatesOf(synth);
    const functionOf = (id: string) => resourcesOfType(templates, 'AWS::Lambda::Function').find((f) => String(f.properties.Description).startsWith(`${id}:`))!;
    const roleOf = (group: string) => JSON.stringify(resourcesOfType(templates, 'AWS::IAM::Role').find((r) => r.stack.node.id === group)!.properties);
    expect(functionOf('socials.status').properties.Environment.Variables).toMatchObject({
      PUBLIC_BASE_URL: 'https://bot.example.org',
      SOCIALS_POLL_SECONDS: '120',
      STREAM_API_TOKEN_SECRET_ARN: STREAM_ARN,
    });
    expect(functionOf('socials.status').properties.Environment.Variables).not.toHaveProperty('STREAM_API_TOKEN');
    expect(roleOf('socials')).toContain(STREAM_ARN);
    expect(functionOf('tags.status').properties.Environment.Variables).toMatchObject({ PUBLIC_BASE_URL: 'https://bot.example.org' });
    expect(functionOf('tags.status').properties.Environment.Variables).not.toHaveProperty('STREAM_API_TOKEN_SECRET_ARN');
    expect(roleOf('tags')).not.toContain(STREAM_ARN);
    expect(() => synthService(routes, { context: { functionEnvironment: '{"lower": "x"}' } })).toThrow(/UPPER_CASE/);
  });

  it('creates the three secrets when no ARN is given, the service token and the cursor key generated, and lets route functions read the cursor key', () => {
    const templates = templatesOf(synthService(routes));
    const secrets = resourcesOfType(templates, 'AWS::SecretsManager::Secret');
    expect(secrets).toHaveLength(3);
    for (const s of secrets) expect(s.resource.DeletionPolicy).toBe('Retain');
    expect(secrets.filter((s) => s.properties.GenerateSecretString).map((s) => s.properties.Description)).toEqual(
      expect.arrayContaining([expect.stringContaining('cursors')]),
    );
    const route = resourcesOfType(templates, 'AWS::Lambda::Function').find((f) => String(f.properties.Description).startsWith('tags.status:'))!;
    expect(route.properties.Environment.Variables).toHaveProperty('CURSOR_SECRET_SECRET_ARN');
  });

  it('bounds verification links by verifierLinkSeconds (default one day), given to every route function', () => {
    const linkSeconds = (synth: ReturnType<typeof synthService>) =>
      resourcesOfType(templatesOf(synth), 'AWS::Lambda::Function').find((f) => String(f.properties.Description).startsWith('tags.status:'))!.properties
        .Environment.Variables.VERIFIER_LINK_SECONDS;
    expect(linkSeconds(synthService(routes))).toBe('86400');
    expect(linkSeconds(synthService(routes, { context: { verifierLinkSeconds: '600' } }))).toBe('600');
    expect(() => synthService(routes, { context: { verifierLinkSeconds: '0' } })).toThrow(/verifierLinkSeconds/);
    expect(() => synthService(routes, { context: { verifierLinkSeconds: '1.5' } })).toThrow(/verifierLinkSeconds/);
  });

  it('turns on source maps only when the bundles carry them', () => {
    const synth = synthService(routes, { sourceMaps: true });
    for (const f of resourcesOfType(templatesOf(synth), 'AWS::Lambda::Function').filter((f) => f.stack !== synth.stack)) {
      expect(f.properties.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
    }
  });

  it('has no authorizer when every route is public', () => {
    const synth = synthService({ tags: [routes.tags![0]!] });
    expect(resourcesOfType(templatesOf(synth), 'AWS::ApiGateway::Authorizer')).toHaveLength(0);
  });

  it('refuses settings AWS would reject', () => {
    expect(() => synthService(routes, { settings: { timeoutSeconds: 30 } })).toThrow(/API Gateway waits/);
    expect(() => synthService(routes, { settings: { logRetentionDays: 31 } })).toThrow(/retention/);
    expect(() => synthService(routes, { context: { memorySize: 'lots' } })).toThrow(/memorySize/);
    expect(() => synthService(routes, { context: { guildKeyRate: '0.5' } })).toThrow(
      'Context guildKeyRate must be a whole number of requests a second for each guild API key, 1 or more (default 10), not "0.5"',
    );
    expect(() => synthService(routes, { settings: { guildKeyRate: -3 } })).toThrow('guildKeyRate must be a whole number');
  });

  it('asks for a build when a bundle is missing', () => {
    const empty = mkdtempSync(join(tmpdir(), 'gms-no-dist-'));
    expect(() => codeFromDist(empty)('functions/tags/create-tag.ts')).toThrow(/npm run build/);
  });
});
