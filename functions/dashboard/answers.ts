import type { AnswerTable } from '#shared/http/answers.js';
import { pageAnswer } from './page-answers.js';

/** What each route of the module answers, by id (shared/http/answers.ts): read by the OpenAPI document and the tests, never bundled. */
export const answers = {
  'dashboard.login': pageAnswer('A redirect (302) to the platform; a page when the dashboard is not configured'),
  'dashboard.callback': pageAnswer('A redirect (302) to the guild list with the session cookie; a wrong or replayed state or code: the 400 page'),
  'dashboard.logout': pageAnswer('A redirect (303) to the sign-in page; without the CSRF token: the 403 page'),
  'dashboard.home': pageAnswer("The member's guilds"),
  'dashboard.guild': pageAnswer('The guild page; 403 when the member may not configure the guild or the bot is not in it'),
  'dashboard.asset': {
    contentType: 'text/javascript or text/css',
    description: "The dashboard's script or style sheet, with its ETag (304 without a body when If-None-Match names it)",
  },
} as const satisfies AnswerTable;

type Declared = typeof answers;
declare module '#shared/http/answers.js' {
  interface Answers extends Declared {}
}
