import { endpoint } from '#shared/http/endpoint.js';
import { routeFamily } from '#shared/http/route-family.js';
import { FAMILIES, type Family, familyRoute } from './families.js';
import { closeVoiceSession, openVoiceSession, recordPresence, recordStat } from './stats.js';
import { RecordedAnswer, recordingBody } from './stats-schemas.js';

/** Internal: records one statistic, for every family (POST), and closes voice sessions (PUT /stats/voice). */
function recorder(family: Family, method: 'POST' | 'PUT') {
  const body = recordingBody(family, method);
  return () =>
    endpoint({ body, response: RecordedAnswer }, ({ body }) => {
      const input = body as Parameters<typeof recordStat>[1];
      if (family.shape.kind === 'presence') return recordPresence(family, input as Parameters<typeof recordPresence>[1]);
      if (family.shape.kind === 'voice') {
        return method === 'POST'
          ? openVoiceSession(family, input as Parameters<typeof openVoiceSession>[1])
          : closeVoiceSession(family, input as Parameters<typeof closeVoiceSession>[1]);
      }
      return recordStat(family, input);
    });
}

export const handler = routeFamily([
  ...FAMILIES.map((family) => ({ method: 'POST' as const, path: familyRoute(family), build: recorder(family, 'POST') })),
  ...FAMILIES.filter((f) => f.shape.kind === 'voice').map((family) => ({ method: 'PUT' as const, path: familyRoute(family), build: recorder(family, 'PUT') })),
]);
