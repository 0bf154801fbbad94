import { Logger } from '@aws-lambda-powertools/logger';
import { MetricUnit, Metrics } from '@aws-lambda-powertools/metrics';

/** The same event and metrics with Powertools for AWS Lambda's Logger and Metrics (two lines: they write apart). */
const logger = new Logger({ serviceName: 'guild-modules' });
const metrics = new Metrics({ namespace: 'GuildModules', serviceName: 'guild-modules' });

export const handler = async () => {
  logger.info('request', { route: 'polls.vote', guild_id: '1', status: 200, duration_ms: 1 });
  metrics.addDimensions({ Module: 'polls', StatusClass: '2xx' });
  metrics.addMetric('Requests', MetricUnit.Count, 1);
  metrics.addMetric('RequestDuration', MetricUnit.Milliseconds, 1);
  metrics.publishStoredMetrics();
};
