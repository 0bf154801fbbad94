import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Access, Method, Route } from '#shared/http/route.js';
import type { Job } from '#infra/jobs.js';
import { applyNagSuppressions } from '#infra/nag-suppressions.js';
import { ServiceStack, type ServiceStackProps } from '#infra/stacks/service-stack.js';

const here = dirname(fileURLToPath(import.meta.url));

/** A one-file fake bundle, so infra tests never need a real build. */
export function fakeBundleDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gms-fake-bundle-'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.mjs'), 'export const handler = async () => ({ statusCode: 200, body: "{}" });\n');
  return dir;
}

/**
 * The full route list of the service (279 routes from the fixture copied
 * from shared/tools/routes.json), as Route records grouped like
 * functions/routes.ts: ids `module.method-path`, one fake file per route.
 */
export function fullRouteGroups(): Record<string, Route[]> {
  const { routes } = JSON.parse(readFileSync(join(here, 'fixtures', 'routes.json'), 'utf8')) as { routes: { method: Method; path: string; access: Access }[] };
  const groups: Record<string, Route[]> = {};
  for (const r of routes) {
    const segments = r.path.split('/').filter(Boolean);
    const group = segments[0] === 'modules' ? segments[1]! : segments[0] === 'auth' ? 'auth' : 'health';
    const rest = (segments[0] === 'modules' ? segments.slice(2) : segments).map((s) => s.replace(/[{}]/g, '').replace(/[^a-z0-9]+/gi, '-'));
    const operation = [r.method.toLowerCase(), ...rest].join('-');
    const route: Route = {
      id: `${group}.${operation}`,
      method: r.method,
      path: r.path,
      access: r.access,
      file: `functions/${group}/${operation}.ts`,
      summary: operation,
    };
    (groups[group] ??= []).push(route);
  }
  return groups;
}

export interface Synth {
  app: App;
  stack: ServiceStack;
  /** Every stack of the app (the root and its nested stacks). */
  stacks: Stack[];
}

export interface SynthOptions {
  jobs?: readonly Job[];
  settings?: ServiceStackProps['settings'];
  sourceMaps?: boolean;
  /** Extra CDK context, as `-c key=value` would give. */
  context?: Record<string, unknown>;
}

/** Synthesises the service once with fake code and the nag acknowledgements applied. */
export function synthService(routeGroups: Readonly<Record<string, readonly Route[]>>, options: SynthOptions = {}): Synth {
  // The feature flags of cdk.json, so tests synthesise what `cdk synth` does.
  const { context } = JSON.parse(readFileSync(join(here, '..', '..', 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  const app = new App({ context: { ...context, ...options.context } });
  const dir = fakeBundleDir();
  const stack = new ServiceStack(app, 'Service', {
    routeGroups,
    jobs: options.jobs,
    settings: options.settings,
    sourceMaps: options.sourceMaps,
    codeFor: () => lambda.Code.fromAsset(dir),
  });
  applyNagSuppressions(stack);
  app.synth();
  const stacks = app.node.findAll().filter((c): c is Stack => Stack.isStack(c));
  return { app, stack, stacks };
}

/** cdk-nag AwsSolutions findings (errors and warnings) left after acknowledgements, as `rule (severity): path`. */
export function nagFindings(app: App): string[] {
  // cdk-nag 3 is a policy-validation plugin; validateScope is its documented entry point for tests.
  const report = new AwsSolutionsChecks(app).validateScope(app);
  return report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} (${v.severity}): ${r.constructPath}`));
}

/** A synthesised CloudFormation template, as JSON. */
export interface CfnTemplate {
  Resources: Record<string, { Type: string; Properties?: Record<string, any>; DependsOn?: string[]; DeletionPolicy?: string }>;
  Parameters?: Record<string, unknown>;
  Outputs?: Record<string, unknown>;
}

/** Every stack's template, read once from the synthesised assembly. */
export function templatesOf(synth: Synth): Map<Stack, CfnTemplate> {
  return new Map(synth.stacks.map((stack) => [stack, Template.fromStack(stack).toJSON() as CfnTemplate]));
}

/** The resources of one type across all templates, with the stack holding each. */
export function resourcesOfType(templates: Map<Stack, CfnTemplate>, type: string) {
  return [...templates].flatMap(([stack, template]) =>
    Object.entries(template.Resources)
      .filter(([, r]) => r.Type === type)
      .map(([logicalId, r]) => ({ stack, logicalId, properties: r.Properties ?? {}, resource: r })),
  );
}
