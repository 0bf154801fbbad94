import type { LocalService } from '#infra/local/start.js';
import { PANEL_SETTINGS } from './fixtures.js';
import { type DynamoCounter, type Floor, handlerRequests, ofGuild, requestRow, send } from './requests.js';
import type { Row } from './table.js';

/** The fewest requests: one read that decides (module state may come from the bounded cache), one write per item changed, one Query per listing. */
const FLOORS: Record<string, Floor> = {
  'create panel (service message)': [2, 'panel and its message pointer written'],
  'create panel (register a message)': [3, 'the pointer read; panel and pointer written'],
  'list panels': [1, 'one Query'],
  'get panel': [1, 'one read'],
  'edit panel': [2, 'one read, one conditional update'],
  'add entry': [2, 'one read, the entry written'],
  'list entries': [1, 'one Query'],
  'get entry': [1, 'one read'],
  'edit entry': [2, 'one read, one conditional update'],
  'check: a new claim': [2, 'one batch read (pointer, entry, claim), the claim written'],
  'check: a one-only claim moves': [2, 'one batch read, the claim rewritten'],
  'check: nothing changes': [1, 'one batch read'],
  'check: unknown emoji (404)': [1, 'one batch read'],
  'delete entry (3 holders, roles taken)': [3, 'one read, a Query of the holders, one batch delete'],
  'privacy count': [1, 'one Query'],
  'privacy delete (1 claim)': [2, 'one Query, one delete'],
  'check-delete (a message, no claims)': [1, 'the pointer read'],
  'delete panel': [3, 'one read, a Query of its items, one batch delete'],
  'module delete': [2, 'a Query of the module items, one batch delete'],
};

/**
 * DynamoDB requests per reaction-roles operation, counted at the client,
 * against local mode and its sandbox platform.
 */
export async function reactionRolesRequests(service: LocalService, counter: DynamoCounter): Promise<Row[]> {
  const guild = '2234567890123456789';
  const channel = '3234567890123456789';
  const base = '/modules/reactionroles';
  const rows: Row[] = [];
  const json = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(service.url + path, {
      method,
      headers: { authorization: `Bearer ${service.serviceToken}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return ((await res.json()) as { data: { panel: { panel_id: string; message_id: string }; entry: { entry_id: string } } }).data;
  };
  const measure = async <T>(operation: string, run: () => Promise<T>): Promise<T> => {
    counter.take();
    const result = await run();
    rows.push(requestRow(`reactionroles: ${operation}`, handlerRequests(counter.take()), FLOORS[operation]));
    return result;
  };
  const react = (member: string, emoji: string) =>
    json(
      'POST',
      `${base}/check`,
      { guild_id: guild, channel_id: channel, message_id: panel.message_id, interaction_type: 'reaction_add', emoji_name: emoji, emoji_id: null },
      { 'x-acting-user-id': member },
    );

  await ofGuild(service, guild, { channels: [channel], roles: ['11', '12', '13'] });
  await send(service, 'POST', `${base}/enable`, { guild_id: guild });
  const { panel } = await measure('create panel (service message)', () =>
    json('POST', `${base}/panels`, {
      guild_id: guild,
      channel_id: channel,
      is_register: false,
      panel_type: 'emoji',
      is_embed: false,
      content: 'Pick',
      ...PANEL_SETTINGS,
    }),
  );
  const own = (await (
    await fetch(`${service.sandboxUrl!.replace(/\/api\/v10$/, '')}/_sandbox/channels/${channel}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ author_id: '42', content: 'mine' }),
    })
  ).json()) as { id: string };
  await measure('create panel (register a message)', () =>
    send(service, 'POST', `${base}/panels`, {
      guild_id: guild,
      channel_id: channel,
      is_register: true,
      register_message_id: own.id,
      panel_type: 'emoji',
      ...PANEL_SETTINGS,
    }),
  );
  await measure('list panels', () => send(service, 'GET', `${base}/panels?guild_id=${guild}`));
  await measure('get panel', () => send(service, 'GET', `${base}/panel/${panel.panel_id}?guild_id=${guild}`));
  await measure('edit panel', () =>
    send(service, 'PUT', `${base}/panel/${panel.panel_id}`, {
      guild_id: guild,
      panel_type: 'emoji',
      message_content: 'Pick one',
      message_is_embed: false,
      ...PANEL_SETTINGS,
    }),
  );
  const { entry } = await measure('add entry', () =>
    json('POST', `${base}/panel/${panel.panel_id}/entries`, {
      guild_id: guild,
      role_ids: ['11'],
      emoji_name: '😀',
      emoji_id: null,
      text: null,
      description: null,
    }),
  );
  await send(service, 'POST', `${base}/panel/${panel.panel_id}/entries`, {
    guild_id: guild,
    role_ids: ['12'],
    emoji_name: '🎉',
    emoji_id: null,
    text: null,
    description: null,
  });
  await measure('list entries', () => send(service, 'GET', `${base}/panel/${panel.panel_id}/entries?guild_id=${guild}`));
  await measure('get entry', () => send(service, 'GET', `${base}/panel/${panel.panel_id}/entries/${entry.entry_id}?guild_id=${guild}`));
  await measure('edit entry', () =>
    send(service, 'PUT', `${base}/panel/${panel.panel_id}/entries/${entry.entry_id}`, { guild_id: guild, role_ids: ['13'], text: null, description: null }),
  );
  await measure('check: a new claim', () => react('501', '😀'));
  await measure('check: a one-only claim moves', () => react('501', '🎉'));
  await measure('check: nothing changes', () => react('501', '🎉'));
  await measure('check: unknown emoji (404)', () => react('501', '🍕'));
  for (const member of ['502', '503', '504']) await react(member, '😀');
  await measure('delete entry (3 holders, roles taken)', () =>
    send(service, 'DELETE', `${base}/panel/${panel.panel_id}/entries/${entry.entry_id}`, { guild_id: guild }),
  );
  await measure('privacy count', () => send(service, 'GET', `${base}/privacy/get-user-entries?guild_id=${guild}&privacy_member_id=501`));
  await measure('privacy delete (1 claim)', () =>
    send(service, 'DELETE', `${base}/privacy/delete-user-entries`, { guild_id: guild, privacy_member_id: '501' }),
  );
  await measure('check-delete (a message, no claims)', () =>
    send(service, 'POST', `${base}/panel/check-delete`, { guild_id: guild, channel_id: channel, message_id: own.id }),
  );
  await measure('delete panel', () => send(service, 'DELETE', `${base}/panel/${panel.panel_id}`, { guild_id: guild }));
  await measure('module delete', () => send(service, 'DELETE', `${base}/delete`, { guild_id: guild }));
  return rows;
}
