import { setMetricOutput } from '#shared/observe/emit.js';
import { setLogOutput } from '#shared/observe/log.js';

// Tests read logs and metrics through onLog and onMetric (test/helpers/observe.ts); nothing is printed.
setLogOutput(null);
setMetricOutput(null);
