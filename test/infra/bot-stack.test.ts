/**
 * The optional bot stack (infra/stacks/bot-stack.ts): the reference bot as
 * one long-running Fargate task, its tokens from the service's secrets.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { describe, expect, it } from 'vitest';
import { applyBotNagSuppressions } from '#infra/nag-suppressions.js';
import { BotStack } from '#infra/stacks/bot-stack.js';
import { nagFindings } from './helpers.js';

function synthBot({ builtImage = false } = {}) {
  const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'gms-bot-synth-')) });
  const secrets = new Stack(app, 'Secrets');
  const secret = (name: string) =>
    secretsmanager.Secret.fromSecretCompleteArn(secrets, name, `arn:aws:secretsmanager:eu-west-1:123456789012:secret:${name}-AbCdEf`);
  const stack = new BotStack(app, 'Bot', {
    serviceUrl: 'https://example.execute-api.eu-west-1.amazonaws.com/v1',
    serviceTokenSecret: secret('ServiceToken'),
    platformBotTokenSecret: secret('PlatformBotToken'),
    image: builtImage ? undefined : ecs.ContainerImage.fromRegistry('public.ecr.aws/docker/library/node:24-slim'),
  });
  applyBotNagSuppressions(stack);
  const assembly = app.synth();
  return { app, stack, assembly, template: Template.fromStack(stack) };
}

describe('bot stack', () => {
  const { app, template } = synthBot();

  it('keeps exactly one bot task running, never two sessions at once', () => {
    template.hasResourceProperties('AWS::ECS::Service', {
      DesiredCount: 1,
      LaunchType: 'FARGATE',
      DeploymentConfiguration: { MaximumPercent: 100, MinimumHealthyPercent: 0 },
    });
  });

  it('gives the bot the service URL and platform base, and its two tokens from Secrets Manager only', () => {
    const [task] = Object.values(template.findResources('AWS::ECS::TaskDefinition'));
    const container = (task as { Properties: { ContainerDefinitions: Record<string, any>[] } }).Properties.ContainerDefinitions[0]!;
    expect(Object.fromEntries(container.Environment.map((e: { Name: string; Value: unknown }) => [e.Name, e.Value]))).toEqual({
      PLATFORM_API_BASE_URL: 'https://discord.com/api/v10',
      SERVICE_URL: 'https://example.execute-api.eu-west-1.amazonaws.com/v1',
    });
    expect(container.Secrets.map((s: { Name: string }) => s.Name).sort()).toEqual(['PLATFORM_BOT_TOKEN', 'SERVICE_TOKEN']);
    expect(JSON.stringify(container.Environment)).not.toMatch(/TOKEN/);
  });

  it('passes cdk-nag', () => {
    expect(nagFindings(app)).toEqual([]);
  });
});

it("by default builds the bot's image from clients/bot/Dockerfile, with the clients and the lock file only", () => {
  const { assembly } = synthBot({ builtImage: true });
  const images = assembly.artifacts.flatMap((artifact) => {
    const manifest = (artifact as { contents?: { dockerImages?: Record<string, { source: { directory: string; dockerFile?: string } }> } }).contents;
    return Object.values(manifest?.dockerImages ?? {});
  });
  expect(images.map((i) => i.source.dockerFile)).toEqual(['clients/bot/Dockerfile']);
  const staged = join(assembly.directory, images[0]!.source.directory);
  expect(readdirSync(staged).sort()).toEqual(['clients', 'package-lock.json', 'package.json']);
  expect(readdirSync(join(staged, 'clients', 'bot'))).toContain('main.ts');
});
