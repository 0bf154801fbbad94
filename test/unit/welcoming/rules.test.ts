import { describe, expect, it } from 'vitest';
import { grantDueKey, mintOrderedId, parseGrantDueKey } from '#functions/welcoming/keys.js';
import type { WelcomeResponse } from '#functions/welcoming/model.js';
import { pickResponse } from '#functions/welcoming/render.js';
import { CreateResponseBody, SettingsBody } from '#functions/welcoming/schemas.js';

const response = (response_id: string): WelcomeResponse => ({
  id: 1,
  guild_id: '1',
  response_id,
  response_type: 1,
  is_embed: false,
  content: response_id,
  created_at: '2026-01-01T00:00:00.000Z',
});

describe('pickResponse', () => {
  const oldestFirst = [response('a'), response('b'), response('c')];

  it('answers the named response, else the oldest, else nothing', () => {
    expect(pickResponse(oldestFirst, false, 'b')?.response_id).toBe('b');
    expect(pickResponse(oldestFirst, false, 'gone')?.response_id).toBe('a');
    expect(pickResponse(oldestFirst, false, null)?.response_id).toBe('a');
    expect(pickResponse([], false, 'a')).toBeNull();
    expect(pickResponse([], true, null)).toBeNull();
  });

  it('answers any of them when randomized, whatever is named', () => {
    const seen = new Set(Array.from({ length: 200 }, () => pickResponse(oldestFirst, true, 'b')!.response_id));
    expect(seen).toEqual(new Set(['a', 'b', 'c']));
  });
});

describe('keys', () => {
  it('a grant key names guild, member and timed role, and reads back', () => {
    const timedRoleId = mintOrderedId();
    expect(parseGrantDueKey(grantDueKey('11', '22', timedRoleId))).toEqual({ guildId: '11', memberId: '22', timedRoleId });
    expect(parseGrantDueKey('11#22')).toBeNull();
  });

  it('minted IDs are URL-safe and sort in creation order', () => {
    const ids = [mintOrderedId(1_000), mintOrderedId(2_000), mintOrderedId(1_900_000_000_000)];
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{31}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(mintOrderedId(5)).not.toBe(mintOrderedId(5));
  });
});

describe('SettingsBody (contract 3.5)', () => {
  const parse = (body: Record<string, unknown>) => SettingsBody.safeParse({ guild_id: '1', ...body });

  it('keeps a field left out or null, clears a channel or response ID given as ""', () => {
    const out = parse({ welcome_messages_enabled: null, leave_messages_channel: '', welcome_messages_channel: 42n, leave_message_response_id: '' });
    expect(out.success).toBe(true);
    expect(out.data?.welcome_messages_enabled).toBeUndefined();
    expect(out.data?.welcome_message_response_id).toBeUndefined();
    expect(out.data?.leave_messages_channel).toBeNull();
    expect(out.data?.leave_message_response_id).toBeNull();
    expect(out.data?.welcome_messages_channel).toBe('42');
  });

  it('stores autoroles joined by commas, each once; "" or [] clears them', () => {
    expect(parse({ autorole_role_ids: ['5', 6, '5'] }).data?.autorole_role_ids).toBe('5,6');
    expect(parse({ autorole_role_ids: '' }).data?.autorole_role_ids).toBe('');
    expect(parse({ autorole_role_ids: [] }).data?.autorole_role_ids).toBe('');
    expect(parse({ autorole_role_ids: null }).data?.autorole_role_ids).toBeUndefined();
    expect(parse({ autorole_role_ids: 'abc' }).success).toBe(false);
  });
});

describe('CreateResponseBody', () => {
  it('checks content against the platform limits when stored', () => {
    const body = (content: string, is_embed: boolean) => CreateResponseBody.safeParse({ guild_id: '1', response_type: 2, is_embed, content });
    expect(body('Welcome <user_mention>', false).success).toBe(true);
    expect(body(JSON.stringify({ description: 'Hi <user_name>' }), true).success).toBe(true);
    expect(body('{"title": 1', true).success).toBe(false);
    expect(body(JSON.stringify({ description: 'x'.repeat(4097) }), true).success).toBe(false);
    expect(body(JSON.stringify({ fields: Array.from({ length: 26 }, () => ({ name: 'a', value: 'b' })) }), true).success).toBe(false);
    expect(body(JSON.stringify({ title: 5 }), true).success).toBe(false);
    expect(body(JSON.stringify({ title: 'Hi', fields: [{ name: 'only a name' }] }), true).success).toBe(false);
    expect(body(JSON.stringify({}), true).success).toBe(false);
  });
});
