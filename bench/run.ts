import { startLocal } from '#infra/local/start.js';
import { coldRequestBench } from './cold.js';
import { runPollsBench } from './polls.js';
import { reactionRolesRequests } from './reactionroles.js';
import { runGiveawaysBench } from './giveaways.js';
import { runInvitesVerifierBench } from './invites-verifier.js';
import { runServerstatsBench } from './serverstats.js';
import { runStatsBatchBench } from './stats-batch.js';
import { runSocialsBench } from './socials.js';
import { runFanOutBench } from './fan-out.js';
import { runEntrantsBench } from './entrants.js';
import { runLoopBench } from './loop.js';
import { runResumeBench } from './resume.js';
import { runTagsBench } from './tags.js';
import { runCostBench } from './cost.js';
import { runDashboardBench } from './dashboard.js';
import { runWelcomingBench } from './welcoming.js';
import { runIdempotencyBench } from './idempotency.js';
import { countDynamoRequests, foundationRequests, warmCost } from './requests.js';
import { sizeRows } from './sizes.js';
import { type Row, printRows } from './table.js';

/**
 * `npm run bench`: figures, not tests. Every time is a ratio against a
 * baseline measured in the same run (the SDK floor, a raw handler, dynalite's
 * own writes), so the table reads the same on any machine; absolute times
 * are notes. A module's own request counts go in bench/<module>.ts and are
 * listed here.
 */
/** `npx tsx bench/run.ts --only cold`: the bundles and cold requests alone (a few minutes), not the module sections. */
const onlyCold = process.argv.includes('--only') && process.argv[process.argv.indexOf('--only') + 1] === 'cold';
const rows: Row[] = [];
const cold = await coldRequestBench();
rows.push(...sizeRows(cold), ...cold.rows);
if (onlyCold) {
  printRows(rows);
  process.exit(0);
}

const service = await startLocal({ port: 0, dataDir: null, printLogs: false });
try {
  const counter = countDynamoRequests();
  rows.push(...(await foundationRequests(service, counter)));
  rows.push(...(await reactionRolesRequests(service, counter)));
  rows.push(...(await warmCost()));
} finally {
  await service.stop();
}
// Modules with their own figures start their own local mode: the environment and the table client are per process.
rows.push(...(await runPollsBench()));
rows.push(...(await runServerstatsBench()));
rows.push(...(await runStatsBatchBench()));
rows.push(...(await runWelcomingBench()));
rows.push(...(await runSocialsBench()));
rows.push(...(await runFanOutBench()));
rows.push(...(await runResumeBench()));
rows.push(...(await runGiveawaysBench()));
rows.push(...(await runEntrantsBench()));
rows.push(...(await runInvitesVerifierBench()));
rows.push(...(await runTagsBench()));
rows.push(...(await runLoopBench()));
rows.push(...(await runCostBench()));
rows.push(...(await runIdempotencyBench()));
rows.push(...(await runDashboardBench()));

printRows(rows);
