import type { AnswerTable } from '#shared/http/answers.js';
import { MODULES } from '#shared/modules/names.js';
import { DiagnosticsAnswer } from './schemas.js';

/** What each module's diagnostics route answers, by id (shared/http/answers.ts): read by the OpenAPI document and the tests, never bundled. */
export const familyAnswers: AnswerTable = Object.fromEntries(MODULES.map((module) => [`${module}.diagnostics`, DiagnosticsAnswer]));
