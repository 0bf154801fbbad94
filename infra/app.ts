/**
 * The CDK app: `npx cdk synth` / `npx cdk deploy --all`; cdk.json runs the
 * build (`infra/build.ts`) first. Env-agnostic: no account or
 * region is looked up, so synth works offline and without credentials.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { routeGroups } from '#functions/routes.js';
import { readBuildInfo } from './bundles.js';
import { jobs } from './jobs.js';
import { applyBotNagSuppressions, applyNagSuppressions } from './nag-suppressions.js';
import { BotStack } from './stacks/bot-stack.js';
import { ServiceStack } from './stacks/service-stack.js';

const app = new App();
const build = readBuildInfo();
if (!build) throw new Error('dist/functions has no build-info.json: run `npm run build` before synth');

const stack = new ServiceStack(app, 'GuildModuleService', {
  description: 'Guild Module Management Service: REST API, route Lambdas, table, queues',
  routeGroups,
  jobs,
  sourceMaps: build.sourceMaps,
});

// cdk-nag AwsSolutions on every synth (opt out with `-c nag=false`): findings we accept are
// acknowledged with their reasons in nag-suppressions.ts; anything new shows in the synth report.
applyNagSuppressions(stack);

// The reference bot (clients/bot) as a long-running container, only with `-c bot=true`; `-c botPlatformApiBaseUrl=...` points it elsewhere.
if (String(app.node.tryGetContext('bot') ?? 'false') === 'true') {
  const bot = new BotStack(app, 'GuildModuleBot', {
    description: 'Guild Module Management Service: the reference bot (gateway to service), one Fargate task',
    // The bot's door (HTTP API, $1.00 a million requests against the REST API's $3.50); guild keys use the REST API.
    serviceUrl: stack.botApi?.url ?? stack.api.url,
    serviceTokenSecret: stack.serviceTokenSecret,
    platformBotTokenSecret: stack.platformBotTokenSecret,
    platformApiBaseUrl: app.node.tryGetContext('botPlatformApiBaseUrl'),
  });
  applyBotNagSuppressions(bot);
}
if (String(app.node.tryGetContext('nag') ?? 'true') !== 'false') Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
