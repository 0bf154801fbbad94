/**
 * The reference bot (clients/bot) as a long-running container: one ECS
 * Fargate task kept running, its image built from clients/bot/Dockerfile,
 * the platform bot token and the service token read from Secrets Manager at
 * start. Optional: the app adds it only with `-c bot=true`. The task needs no
 * inbound traffic (it dials the platform's gateway and the service), so it
 * runs in public subnets with a public address and no NAT gateway.
 */
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';

/** The repository root: the Docker build context of the bot's image. */
const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));

/** What the image build reads: the lock file and the clients; the rest of the repository is left out of the asset. */
const IMAGE_EXCLUDES = ['**', '!package.json', '!package-lock.json', '!clients/**'];

export interface BotStackProps extends StackProps {
  /** The service's base URL (the API stage, `https://<api>/v1`). */
  serviceUrl: string;
  serviceTokenSecret: secretsmanager.ISecret;
  platformBotTokenSecret: secretsmanager.ISecret;
  /** The platform's REST base; default the public platform's. */
  platformApiBaseUrl?: string;
  /** The image; default built from clients/bot/Dockerfile (tests pass a registry image). */
  image?: ecs.ContainerImage;
  logRetention?: logs.RetentionDays;
}

export class BotStack extends Stack {
  readonly service: ecs.FargateService;
  readonly taskDefinition: ecs.FargateTaskDefinition;

  constructor(scope: Construct, id: string, props: BotStackProps) {
    super(scope, id, props);
    const vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'public', subnetType: ec2.SubnetType.PUBLIC }],
      flowLogs: { rejected: { trafficType: ec2.FlowLogTrafficType.REJECT } },
    });
    const cluster = new ecs.Cluster(this, 'Cluster', { vpc, containerInsightsV2: ecs.ContainerInsights.ENABLED });

    this.taskDefinition = new ecs.FargateTaskDefinition(this, 'Task', {
      cpu: 256,
      memoryLimitMiB: 512,
      runtimePlatform: { cpuArchitecture: ecs.CpuArchitecture.X86_64, operatingSystemFamily: ecs.OperatingSystemFamily.LINUX },
    });
    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.taskDefinition.addContainer('Bot', {
      image: props.image ?? ecs.ContainerImage.fromAsset(REPOSITORY, { file: 'clients/bot/Dockerfile', exclude: IMAGE_EXCLUDES }),
      logging: ecs.LogDrivers.awsLogs({ logGroup, streamPrefix: 'bot' }),
      environment: {
        PLATFORM_API_BASE_URL: props.platformApiBaseUrl ?? 'https://discord.com/api/v10',
        SERVICE_URL: props.serviceUrl,
      },
      secrets: {
        PLATFORM_BOT_TOKEN: ecs.Secret.fromSecretsManager(props.platformBotTokenSecret),
        SERVICE_TOKEN: ecs.Secret.fromSecretsManager(props.serviceTokenSecret),
      },
      stopTimeout: Duration.seconds(30),
    });

    // One session per token: a deployment stops the old task before starting the new one.
    this.service = new ecs.FargateService(this, 'Service', {
      cluster,
      taskDefinition: this.taskDefinition,
      desiredCount: 1,
      minHealthyPercent: 0,
      maxHealthyPercent: 100,
      assignPublicIp: true,
      vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
      circuitBreaker: { rollback: true },
    });
  }
}
