import { familyEndpoint } from '#shared/http/route-family.js';
import * as routes from './routes.js';
import { closeVoiceSession, openVoiceSession, recordPresence, recordStat } from './stats.js';

/** Internal: records one statistic, for every family (POST), and closes voice sessions (PUT /stats/voice). */
export const handler = familyEndpoint(routes.recordStat, ({ family, method }) => ({ body }) => {
  const input = body as Parameters<typeof recordStat>[1];
  if (family.shape.kind === 'presence') return recordPresence(family, input as Parameters<typeof recordPresence>[1]);
  if (family.shape.kind === 'voice') {
    return method === 'POST'
      ? openVoiceSession(family, input as Parameters<typeof openVoiceSession>[1])
      : closeVoiceSession(family, input as Parameters<typeof closeVoiceSession>[1]);
  }
  return recordStat(family, input);
});
