import type { AnswerTable } from '#shared/http/answers.js';
import { answers as auth } from './auth/answers.js';
import { answers as dashboard } from './dashboard/answers.js';
import { familyAnswers as diagnosticsFamilies } from './diagnostics/answers.js';
import { answers as giveaways } from './giveaways/answers.js';
import { answers as health } from './health/answers.js';
import { answers as inviteTracker } from './invite-tracker/answers.js';
import { answers as moduleState } from './module-state/answers.js';
import { answers as parked } from './parked/answers.js';
import { answers as polls } from './polls/answers.js';
import { answers as reactionroles } from './reactionroles/answers.js';
import { answers as serverstats, familyAnswers as serverstatsFamilies } from './serverstats/answers.js';
import { answers as socials, familyAnswers as socialsFamilies } from './socials/answers.js';
import { answers as tags } from './tags/answers.js';
import { answers as verifier } from './verifier/answers.js';
import { answers as welcoming } from './welcoming/answers.js';

/**
 * Every route's answer by id, from each module's `answers.ts`: what the
 * OpenAPI document and the tests read (`loadSpec`, shared/http/load-handler.ts).
 * No function imports it, so none bundles a success schema.
 */
export const answers: AnswerTable = {
  ...auth,
  ...dashboard,
  ...diagnosticsFamilies,
  ...giveaways,
  ...health,
  ...inviteTracker,
  ...moduleState,
  ...parked,
  ...polls,
  ...reactionroles,
  ...serverstats,
  ...serverstatsFamilies,
  ...socials,
  ...socialsFamilies,
  ...tags,
  ...verifier,
  ...welcoming,
};
