import type { AnswerTable } from '#shared/http/answers.js';
import { HomeAnswer, SnapshotAnswer, StatusAnswer } from '../module-state/answers.js';
import { CounterAnswer, CountersAnswer, DeletedAnswer, MessageAnswer, SettingsAnswer } from './schemas.js';
import { messageAnswer, privacyCounts } from '#shared/http/schemas.js';
import { rowsOf } from '#shared/http/route-family.js';
import { fetchStats, recordStat } from './routes.js';
import { FAMILIES } from './families.js';
import { RecordedAnswer, fetchAnswer } from './stats-schemas.js';
import { BatchAnswer } from './batch-schemas.js';

/** What each route of the module answers, by id (shared/http/answers.ts): read by the OpenAPI document and the tests, never bundled. */
export const answers = {
  'serverstats.home': HomeAnswer,
  'serverstats.status': StatusAnswer,
  'serverstats.enable': SnapshotAnswer,
  'serverstats.disable': SnapshotAnswer,
  'serverstats.get-settings': SettingsAnswer,
  'serverstats.update-settings': SettingsAnswer,
  'serverstats.delete-settings': DeletedAnswer,
  'serverstats.privacy-get-user-entries': privacyCounts,
  'serverstats.privacy-delete-user-entries': messageAnswer,
  'serverstats.list-counters': CountersAnswer,
  'serverstats.create-counter': CounterAnswer,
  'serverstats.get-counter': CounterAnswer,
  'serverstats.delete-counter': CounterAnswer,
  'serverstats.update-counters': MessageAnswer,
  'serverstats.check-delete-counters': MessageAnswer,
  'serverstats.setup-starboard': MessageAnswer,
  'serverstats.record-batch': BatchAnswer,
  'serverstats.starboard-check-add': MessageAnswer,
  'serverstats.starboard-check-remove': MessageAnswer,
  'serverstats.starboard-check-delete': MessageAnswer,
  'serverstats.starboard-check-deleted-message': MessageAnswer,
} as const satisfies AnswerTable;

/** What each statistic family's routes answer (functions/serverstats/routes.ts declares them from the families table). */
export const familyAnswers: AnswerTable = Object.fromEntries([
  ...rowsOf(fetchStats).map((row, at) => [row.id, fetchAnswer(FAMILIES[at]!)] as const),
  ...rowsOf(recordStat).map((row) => [row.id, RecordedAnswer] as const),
]);

type Declared = typeof answers;
declare module '#shared/http/answers.js' {
  interface Answers extends Declared {}
}
