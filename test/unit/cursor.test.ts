/** List cursors: an HMAC under the deployment's secret, bound to guild, family and filter; the secret read once per process. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fetched = vi.hoisted(() => ({ calls: 0, value: 'key-from-secrets-manager' }));
vi.mock('../../shared/aws-json.js', () => ({
  awsJson: async (call: { target: string; body: { SecretId: string } }) => {
    fetched.calls++;
    expect(call.target).toBe('secretsmanager.GetSecretValue');
    return { SecretString: fetched.value };
  },
}));

const { issueCursor, positionOf } = await import('#shared/db/cursor.js');
type Scope = Parameters<typeof issueCursor>[0];

const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:cursor-key-AbCdEf';
const scope: Scope = { guildId: '111111111111111111', family: 'commands/used', filter: { user_id: null, channel_id: null } };

describe('cursor', () => {
  const saved = { plain: process.env.CURSOR_SECRET, arn: process.env.CURSOR_SECRET_SECRET_ARN };
  beforeEach(() => {
    delete process.env.CURSOR_SECRET;
    process.env.CURSOR_SECRET_SECRET_ARN = ARN;
    fetched.calls = 0;
  });
  afterEach(() => {
    if (saved.plain === undefined) delete process.env.CURSOR_SECRET;
    else process.env.CURSOR_SECRET = saved.plain;
    if (saved.arn === undefined) delete process.env.CURSOR_SECRET_SECRET_ARN;
    else process.env.CURSOR_SECRET_SECRET_ARN = saved.arn;
  });

  it('reads the secret once, however many cursors it issues and checks', async () => {
    for (let i = 0; i < 5; i++) {
      const cursor = await issueCursor(scope, `place-${i}`);
      expect(await positionOf(cursor, scope)).toBe(`place-${i}`);
    }
    // Still the one read an hour later: the key is kept for the life of the process (a warm Lambda).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3600_000);
    try {
      expect(await positionOf(await issueCursor(scope, 'later'), scope)).toBe('later');
    } finally {
      vi.useRealTimers();
    }
    expect(fetched.calls).toBe(1);
  });

  it('answers what it issued only for the same guild, family and filter', async () => {
    const cursor = await issueCursor(scope, 'p');
    const others: Scope[] = [
      { ...scope, guildId: '222222222222222222' },
      { ...scope, family: 'messages/sent' },
      { ...scope, filter: { user_id: '333333333333333333', channel_id: null } },
      { ...scope, filter: { user_id: null } },
    ];
    for (const other of others) {
      await expect(positionOf(cursor, other)).rejects.toMatchObject({ status: 422, message: expect.stringContaining("'cursor'") });
    }
  });

  it('is keyed by the secret: a cursor made under another key is refused', async () => {
    const cursor = await issueCursor(scope, 'p');
    process.env.CURSOR_SECRET = 'another deployment';
    await expect(positionOf(cursor, scope)).rejects.toMatchObject({ status: 422 });
    expect(await positionOf(await issueCursor(scope, 'p'), scope)).toBe('p');
  });

  it('takes only the spelling it issued: a MAC or body whose last character differs in its spare bits is refused', async () => {
    const cursor = await issueCursor(scope, 'p');
    const [version, body, mac] = cursor.split('.') as [string, string, string];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // Same decoded bytes, another text: the last character's value with its low spare bits set.
    const respell = (text: string, spare: number) => text.slice(0, -1) + alphabet[alphabet.indexOf(text.at(-1)!) | spare];
    const altered = [`${version}.${body}.${respell(mac, 0b11)}`, `${version}.${respell(body, 0b1111)}.${mac}`];
    for (const other of altered) {
      expect(other).not.toBe(cursor);
      expect(Buffer.from(other.split('.')[2]!, 'base64url')).toEqual(Buffer.from(mac, 'base64url'));
      await expect(positionOf(other, scope)).rejects.toMatchObject({ status: 422, message: expect.stringContaining("'cursor'") });
    }
    expect(await positionOf(cursor, scope)).toBe('p');
  });
});
