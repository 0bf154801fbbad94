import { type Job, jobFileOf } from '#shared/scheduler/job.js';
import { jobs as giveaways } from './giveaways/jobs.js';
import { jobs as inviteTracker } from './invite-tracker/jobs.js';
import { jobs as polls } from './polls/jobs.js';
import { jobs as reactionroles } from './reactionroles/jobs.js';
import { jobs as serverstats } from './serverstats/jobs.js';
import { jobs as socials } from './socials/jobs.js';
import { jobs as verifier } from './verifier/jobs.js';
import { jobs as welcoming } from './welcoming/jobs.js';

/**
 * Every job of the service (behaviour §9), gathered from the modules as
 * `functions/routes.ts` gathers routes. Each job with due work keeps it in
 * the table's due index (`shared/scheduler`); its producer runs every minute
 * and sends what falls due within the next two, delayed to the due time.
 * CDK, local mode and the bench read this.
 */
export const jobs: Job[] = [...polls, ...giveaways, ...socials, ...serverstats, ...welcoming, ...inviteTracker, ...verifier, ...reactionroles].map((row) => ({
  ...row,
  file: jobFileOf(row.id),
}));
