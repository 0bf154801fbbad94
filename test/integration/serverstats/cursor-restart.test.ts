/** The cursor secret is the deployment's: local mode keeps it in DATA_DIR, so a cursor outlives a restart, and another deployment's is refused. */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocal } from '#infra/local/start.js';
import { SERVICE_TOKEN, snowflake } from '#test/helpers/local.js';

const SS = '/modules/serverstats';

async function serviceOn(dataDir: string | null) {
  const service = await startLocal({ port: 0, dataDir, serviceToken: SERVICE_TOKEN, printLogs: false, jobs: false });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(service.url + path, {
      method,
      headers: { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  return Object.assign(service, { call });
}

describe('the cursor secret in local mode', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cursor-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is kept in DATA_DIR, readable by its owner only, and a cursor still works after a restart', async () => {
    const guild = snowflake();
    let service = await serviceOn(dataDir);
    let cursor: string;
    try {
      expect((await service.call('POST', `${SS}/enable`, { guild_id: guild })).status).toBe(200);
      for (let i = 0; i < 3; i++)
        expect((await service.call('POST', `${SS}/stats/commands/used`, { guild_id: guild, initiator_id: snowflake(), command: `c${i}` })).status).toBe(200);
      const first = await service.call('GET', `${SS}/stats/commands/used?guild_id=${guild}&limit=1`);
      cursor = first.body.data.next_cursor;
      expect(cursor).toEqual(expect.any(String));
    } finally {
      await service.stop();
    }
    expect(statSync(join(dataDir, 'cursor-secret')).mode & 0o077).toBe(0);

    service = await serviceOn(dataDir);
    try {
      const next = await service.call('GET', `${SS}/stats/commands/used?guild_id=${guild}&limit=1&cursor=${cursor}`);
      expect(next.status).toBe(200);
      expect(next.body.data.stats.map((s: { command: string }) => s.command)).toEqual(['c1']);
    } finally {
      await service.stop();
    }

    // Another deployment (its own secret) did not issue this cursor.
    const other = await serviceOn(null);
    try {
      expect((await other.call('POST', `${SS}/enable`, { guild_id: guild })).status).toBe(200);
      const refused = await other.call('GET', `${SS}/stats/commands/used?guild_id=${guild}&limit=1&cursor=${cursor}`);
      expect(refused.status).toBe(422);
      expect(refused.body.error.message).toContain("'cursor'");
    } finally {
      await other.stop();
    }
  });
});
