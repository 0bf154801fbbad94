/**
 * The dashboard's OAuth2 client (CONTRACT 19) in CDK: the client secret is a
 * Secrets Manager secret (created for the operator to fill, or an existing
 * one by ARN), and only functions of a route group whose access says
 * `oauth2` (infra/access.ts: the dashboard alone) and the authorizer, which
 * decides the dashboard's sessions, may read it or get the client ID; no
 * other module, no job. The authorizer is then invoked for requests without
 * an `Authorization` header (a session sends a cookie).
 */
import type { Stack } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { GROUP_ACCESS } from '#infra/access.js';
import { jobs } from '#infra/jobs.js';
import type { Route } from '#shared/http/route.js';
import { type CfnTemplate, nagFindings, resourcesOfType, type Synth, synthService, templatesOf } from './helpers.js';

const route = (group: string, name: string, path: string, access: Route['access'] = 'client'): Route => ({
  id: `${group}.${name}`,
  method: 'GET',
  path,
  access,
  file: `functions/${group}/${name}.ts`,
  summary: name,
});
/** A module that calls the platform and pages, a dashboard page: the secret must reach the second only. */
const routes: Record<string, Route[]> = {
  tags: [route('tags', 'status', '/modules/tags/status')],
  dashboard: [route('dashboard', 'home', '/dashboard', 'public')],
};
const CLIENT_ID = '123456789012345678';
const CLIENT_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:client-secret-AbCdEf';

let synth: Synth;
let templates: Map<Stack, CfnTemplate>;

/** Every function with its environment and the secrets its role may read (as JSON text, to find a secret by its logical ID or ARN). */
function functions(t: Map<Stack, CfnTemplate>) {
  return resourcesOfType(t, 'AWS::Lambda::Function').map((fn) => {
    const roleRef = fn.properties.Role?.['Fn::GetAtt']?.[0] as string | undefined;
    const template = t.get(fn.stack)!;
    const role = roleRef ? template.Resources[roleRef] : undefined;
    const attached = Object.values(template.Resources).filter(
      (r) => r.Type === 'AWS::IAM::Policy' && (r.Properties!.Roles as unknown[]).some((x) => JSON.stringify(x) === JSON.stringify({ Ref: roleRef })),
    );
    const statements = [...(role?.Properties?.Policies ?? []), ...attached.map((p) => p.Properties!)].flatMap((p: any) => p.PolicyDocument.Statement);
    const readable = JSON.stringify(statements.filter((s: any) => [s.Action].flat().includes('secretsmanager:GetSecretValue')).map((s: any) => s.Resource));
    return {
      description: String(fn.properties.Description),
      env: (fn.properties.Environment?.Variables ?? {}) as Record<string, unknown>,
      readable,
      stack: fn.stack,
    };
  });
}

describe("the dashboard's OAuth2 client secret", () => {
  beforeAll(() => {
    synth = synthService(routes, { jobs, settings: { platformClientId: CLIENT_ID } });
    templates = templatesOf(synth);
    // The file's first synthesis loads the CDK libraries: over 30 s on a busy machine.
  }, 120_000);

  it('is a secret of its own, kept when the stack goes, with its ARN an output for the operator', () => {
    const secret = resourcesOfType(templates, 'AWS::SecretsManager::Secret').filter((s) => String(s.properties.Description).includes('OAuth2 client secret'));
    expect(secret).toHaveLength(1);
    expect(secret[0]!.resource.DeletionPolicy).toBe('Retain');
    expect(secret[0]!.logicalId).toMatch(/^PlatformClientSecret/);
    expect(Object.keys(templates.get(synth.stack)!.Outputs ?? {})).toContain('PlatformClientSecretArn');
    expect(nagFindings(synth.app)).toEqual([]);
  });

  it('is read, and the client ID given, by the dashboard functions and the authorizer alone: no module, no job', () => {
    const all = functions(templates);
    const readers = (f: { description: string }) => f.description.startsWith('dashboard.') || f.description.startsWith('REQUEST authorizer');
    const dashboard = all.filter(readers);
    const others = all.filter((f) => !readers(f));
    expect(dashboard).toHaveLength(2);
    expect(others.length).toBeGreaterThan(jobs.length);
    for (const f of dashboard) {
      expect(f.env).toMatchObject({ PLATFORM_CLIENT_ID: CLIENT_ID, PLATFORM_CLIENT_SECRET_SECRET_ARN: expect.anything() });
      expect(f.env).not.toHaveProperty('PLATFORM_CLIENT_SECRET');
    }
    // The dashboard's role reads it (in its nested stack, through the parameter the root stack passes the secret's ARN in), and the authorizer's.
    for (const f of dashboard) expect(f.readable, f.description).toContain('PlatformClientSecret');
    for (const f of others) {
      expect(f.env, f.description).not.toHaveProperty('PLATFORM_CLIENT_SECRET_SECRET_ARN');
      expect(f.env, f.description).not.toHaveProperty('PLATFORM_CLIENT_ID');
      expect(f.readable, f.description).not.toContain('PlatformClientSecret');
    }
  });

  it('has API Gateway invoke the authorizer without an Authorization header once sessions exist, and not before', () => {
    const identity = (t: Map<Stack, CfnTemplate>) => resourcesOfType(t, 'AWS::ApiGateway::Authorizer').map((a) => a.properties.IdentitySource ?? null);
    expect(identity(templates)).toEqual([null]);
    expect(identity(templatesOf(synthService({ tags: routes.tags! })))).toEqual(['method.request.header.Authorization']);
  });

  it('is granted by infra/access.ts to the dashboard alone', () => {
    expect(
      Object.entries(GROUP_ACCESS)
        .filter(([, access]) => access.oauth2)
        .map(([group]) => group),
    ).toEqual(['dashboard']);
  });

  it('is an existing secret when its ARN is given: none created, its ARN (never a value) passed on', () => {
    const given = synthService(routes, { settings: { platformClientId: CLIENT_ID, platformClientSecretArn: CLIENT_ARN } });
    const t = templatesOf(given);
    expect(resourcesOfType(t, 'AWS::SecretsManager::Secret').filter((s) => String(s.properties.Description).includes('OAuth2'))).toEqual([]);
    for (const prefix of ['dashboard.', 'REQUEST authorizer']) {
      const reader = functions(t).find((f) => f.description.startsWith(prefix))!;
      expect(reader.env.PLATFORM_CLIENT_SECRET_SECRET_ARN).toBe(CLIENT_ARN);
      expect(reader.readable).toContain(CLIENT_ARN);
    }
    expect(nagFindings(given.app)).toEqual([]);
  });

  it('is not made where no route group signs members in', () => {
    const without = templatesOf(synthService({ tags: routes.tags! }));
    expect(resourcesOfType(without, 'AWS::SecretsManager::Secret').filter((s) => String(s.properties.Description).includes('OAuth2'))).toEqual([]);
  });

  it('refuses a client ID that is not the application ID', () => {
    expect(() => synthService(routes, { settings: { platformClientId: 'my-app' } })).toThrow(/platformClientId must be the platform application's ID/);
  });
});
