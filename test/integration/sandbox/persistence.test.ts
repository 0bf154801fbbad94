/**
 * With a data directory the sandbox keeps its state across a restart, so
 * what the service recorded still points at things that exist; without one
 * (tests' sandboxes) it stays in memory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '#infra/local/sandbox/server.js';

const GUILD = '300000000000000006';
const CHANNEL = '200000000000000006';
const MEMBER = '400000000000000006';
const ROLE = '500000000000000006';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function call(sandbox: Sandbox, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const url = path.startsWith('/_sandbox') ? `${sandbox.origin}${path}` : `${sandbox.url}${path}`;
  const headers: Record<string, string> = { Authorization: 'Bot test', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

it('keeps channels, messages with reactions and poll votes, members with roles and invites across a restart', async () => {
  const dataDir = tempDir();
  const first = await startSandbox({ dataDir });
  await call(first, 'PUT', `/_sandbox/channels/${CHANNEL}`, { guild_id: GUILD, name: 'general' });
  await call(first, 'POST', `/_sandbox/guilds/${GUILD}/members/${MEMBER}/join`, { roles: [ROLE], nick: 'Ann' });
  const poll = { question: { text: 'Tea?' }, answers: [{ poll_media: { text: 'yes' } }, { poll_media: { text: 'no' } }] };
  const posted = await call(first, 'POST', `/channels/${CHANNEL}/messages`, { content: 'kept', poll });
  await call(first, 'PUT', `/channels/${CHANNEL}/messages/${posted.body.id}/reactions/${encodeURIComponent('⭐')}/@me`);
  await call(first, 'PUT', `/_sandbox/channels/${CHANNEL}/messages/${posted.body.id}/poll/answers/2/${MEMBER}`);
  const invite = await call(first, 'POST', `/channels/${CHANNEL}/invites`, {});
  await first.close();

  const second = await startSandbox({ dataDir });
  try {
    const message = await call(second, 'GET', `/channels/${CHANNEL}/messages/${posted.body.id}`);
    expect(message.status).toBe(200);
    expect(message.body).toMatchObject({ content: 'kept', reactions: [{ emoji: { name: '⭐' }, count: 1, me: true }] });
    expect(message.body.poll.results.answer_counts).toEqual([{ id: 2, count: 1, me_voted: false }]);
    expect(new Date(message.body.timestamp).getTime()).toBe(new Date(posted.body.timestamp).getTime());
    expect((await call(second, 'GET', `/guilds/${GUILD}/members/${MEMBER}`)).body).toMatchObject({ nick: 'Ann', roles: [ROLE] });
    expect((await call(second, 'GET', `/invites/${invite.body.code}`)).status).toBe(200);
    expect((await call(second, 'GET', `/guilds/${GUILD}/members/400000000000000099`)).status).toBe(404);
  } finally {
    await second.close();
  }
});

it('starts empty again without a data directory', async () => {
  const sandbox = await startSandbox();
  await call(sandbox, 'PUT', `/_sandbox/channels/${CHANNEL}`, { guild_id: GUILD });
  await sandbox.close();
  const again = await startSandbox();
  expect((await call(again, 'GET', `/channels/${CHANNEL}`)).status).toBe(404);
  await again.close();
});
