import { describe, expect, it } from 'vitest';
import { EntrantEntity } from '#functions/giveaways/entrants.js';
import { GiveawayEntity } from '#functions/giveaways/store.js';
import { InviteEntity, MemberLatestEntity, UseEntity, UseSweepEntity, usesFrom } from '#functions/invite-tracker/store.js';
import { PollEntity, PollListEntity, PollMessageEntity, VoterEntity, VoterSweepEntity } from '#functions/polls/keys.js';
import { ClaimEntity, ClaimSweepEntity, MessageEntity, PanelEntity } from '#functions/reactionroles/store.js';
import { CounterEntity } from '#functions/serverstats/counters-store.js';
import { StarboardEntity } from '#functions/serverstats/starboard-store.js';
import { PurgeEntity, statKey } from '#functions/serverstats/store.js';
import { EntryEntity } from '#functions/socials/store.js';
import { CountEntity, NameEntity, TagEntity } from '#functions/tags/store.js';
import { EntrySweepEntity, VerificationEntity, entriesFrom } from '#functions/verifier/store.js';
import { CatchUpEntity, GrantEntity, GrantSweepEntity, RegistryEntity, ResponseEntity, TimedRoleEntity } from '#functions/welcoming/keys.js';
import { entity, partition } from '#shared/db/entity.js';
import { IdempotencyKeyEntity } from '#shared/http/idempotency-store.js';
import { MODULE_CATALOGUE } from '#shared/modules/catalogue.js';
import { ModuleState, guildKey, moduleStateKey } from '#shared/modules/store.js';

/**
 * The entity definitions are the only place key strings are spelled. The
 * items already in the table were written with the layouts below: a
 * definition that changed one of them would lose every stored item of it,
 * so each layout is pinned here, spelled out as stored.
 */
describe('entity keys (the stored layout)', () => {
  const G = '111';
  it('keeps every guild-partition layout byte for byte', () => {
    const layouts: [{ pk: string; sk: string }, string, string][] = [
      [moduleStateKey(G, 'polls'), 'G#111', 'MODULE#polls'],
      [ResponseEntity.key({ guildId: G, responseId: 'r1' }), 'G#111', 'WELCOME#RESPONSE#r1'],
      [TimedRoleEntity.key({ guildId: G, timedRoleId: 't1' }), 'G#111', 'WELCOME#TIMEDROLE#t1'],
      [RegistryEntity.key({ guildId: G }), 'G#111', 'WELCOME#REGISTRY'],
      [GrantEntity.key({ guildId: G, memberId: '5', timedRoleId: 't1' }), 'G#111', 'WELCOME#GRANT#5#t1'],
      [CatchUpEntity.key({ guildId: G }), 'G#111', 'WELCOME#CATCHUP'],
      [GrantSweepEntity.key({ guildId: G }), 'G#111', 'WELCOME#SWEEP'],
      [TagEntity.key({ guildId: G, tagId: 'a' }), 'G#111', 'TAG#ENTRY#a'],
      [NameEntity.key({ guildId: G, key: 'hello' }), 'G#111', 'TAG#NAME#hello'],
      [CountEntity.key({ guildId: G }), 'G#111', 'TAG#COUNT'],
      [PollEntity.key({ guildId: G, pollId: 'p' }), 'G#111', 'POLL#p'],
      [PollMessageEntity.key({ guildId: G, channelId: '7', messageId: '8' }), 'G#111', 'POLLMSG#7#8'],
      [
        PollListEntity.key({ guildId: G, createdAt: '2026-01-01T00:00:00.000Z', id: 42, pollId: 'p' }),
        'G#111',
        'POLLAT#2026-01-01T00:00:00.000Z#0000000000000042#p',
      ],
      [VoterEntity.key({ guildId: G, pollId: 'p', memberId: '5' }), 'POLLVOTES#111#p', 'VOTER#5'],
      [VoterSweepEntity.key({ guildId: G, pollId: 'p' }), 'POLLVOTES#111#p', 'SWEEP'],
      [PanelEntity.key({ guildId: G, panelId: 'x' }), 'G#111', 'RR#PANEL#x'],
      [MessageEntity.key({ guildId: G, channelId: '7', messageId: '8' }), 'G#111', 'RR#MSG#7#8'],
      [ClaimEntity.key({ guildId: G, panelId: 'x', memberId: '5' }), 'G#111', 'RR#CLAIM#x#5'],
      [ClaimSweepEntity.key({ guildId: G }), 'G#111', 'RR#SWEEP'],
      [GiveawayEntity.key({ guildId: G, entryId: 'e' }), 'G#111', 'GIVEAWAY#e'],
      [EntrantEntity.key({ guildId: G, entryId: 'e', memberId: '5' }), 'GENTRANTS#111#e', 'ENTRANT#00000000000000000005'],
      [InviteEntity.key({ guildId: G, code: 'abc' }), 'G#111', 'INVITE#abc'],
      [MemberLatestEntity.key({ guildId: G, memberId: '5' }), 'G#111', 'INVITEMEMBER#5'],
      [UseEntity.key({ guild_id: G, timestamp: '2026-01-01T00:00:00.000Z', id: 7 }), 'G#111', 'INVITEUSE#2026-01-01T00:00:00.000Z#7'],
      [UseSweepEntity.key({ guildId: G }), 'G#111', 'INVITESWEEP'],
      [VerificationEntity.key({ guildId: G, verifierId: 'v' }), 'G#111', 'VERIFICATION#v'],
      [EntrySweepEntity.key({ guildId: G }), 'G#111', 'VERIFSWEEP'],
      [CounterEntity.key({ guildId: G, counterId: 'c' }), 'G#111', 'COUNTER#c'],
      [StarboardEntity.key({ guildId: G, messageId: '9' }), 'G#111', 'STARBOARD#9'],
      [EntryEntity.key({ guildId: G, kind: 'forum', ident: 'news', channelId: '7' }), 'G#111', 'SOCIAL#forum#news#7'],
      [PurgeEntity.key({ guildId: G }), 'STAT#111', 'PURGE'],
      [statKey(G, 'messages', '2026-01-01T00:00:00.000Z', 42), 'STAT#111', 'messages#2026-01-01T00:00:00.000Z#0000000000000042'],
      [IdempotencyKeyEntity.key({ scope: 'guild:111', operation: 'polls.vote', key: 'evt:1.a_b-c' }), 'IDEM#guild:111#polls.vote#evt:1.a_b-c', 'IDEM'],
    ];
    for (const [key, pk, sk] of layouts) expect(key).toEqual({ pk, sk });
  });

  it('lists the prefixes the module snapshots read, as the entities spell them', () => {
    // The catalogue sits in shared, below the modules, so it cannot import their entities; this keeps the two equal.
    expect(MODULE_CATALOGUE.serverstats.lists).toEqual({ counters: CounterEntity.prefix, starboard_entries: StarboardEntity.prefix });
    expect(MODULE_CATALOGUE.welcoming.lists).toEqual({ responses: ResponseEntity.prefix, timedroles: TimedRoleEntity.prefix });
    expect(MODULE_CATALOGUE['invite-tracker'].lists).toEqual({ invites: InviteEntity.prefix, stats_uses: UseEntity.prefix });
    // Where the uses stored since a delete begin: the sort key of a use at that time, less its id.
    const since = '2026-01-01T00:00:00.000Z';
    expect(MODULE_CATALOGUE['invite-tracker'].since?.stats_uses?.(since)).toBe(usesFrom(since));
    expect(UseEntity.key({ guild_id: '111', timestamp: since, id: 7 }).sk.startsWith(usesFrom(since))).toBe(true);
    expect(MODULE_CATALOGUE.giveaways.lists).toEqual({ giveaways: GiveawayEntity.prefix });
    expect(MODULE_CATALOGUE.verifier.lists).toEqual({ entries: VerificationEntity.prefix });
    expect(MODULE_CATALOGUE.verifier.since?.entries?.(since)).toBe(entriesFrom(since));
    const groups = MODULE_CATALOGUE.socials.groupedLists!.groups;
    for (const kind of ['forum', 'stream', 'rss', 'video'] as const) expect(groups[kind]).toBe(EntryEntity.under(kind));
  });
});

describe('entity()', () => {
  const Thing = entity({
    name: 'thing',
    prefix: 'THING#',
    pk: (f: { guildId: string; a: string; b: string }) => guildKey(f.guildId),
    sk: (f) => [f.a, f.b],
    parse: (item) => ({ label: String(item.label) }),
  });

  it('writes the key, the entity name and the attributes, and reads the record back', () => {
    const item = Thing.item({ guildId: '1', a: 'x', b: 'y' }, { label: 'hi' });
    expect(item).toEqual({ pk: 'G#1', sk: 'THING#x#y', entity: 'thing', label: 'hi' });
    expect(Thing.parse(item)).toEqual({ label: 'hi' });
  });

  it('answers the prefix of the items under some sort-key parts, and which items are its own', () => {
    expect(Thing.under('x')).toBe('THING#x#');
    expect(Thing.under()).toBe('THING#');
    expect(Thing.holds({ pk: 'G#1', sk: 'THING#x#y' })).toBe(true);
    expect(Thing.holds({ pk: 'G#1', sk: 'THINGS#x' })).toBe(false);
  });

  it('builds partition keys from a prefix and parts, and tells the prefix', () => {
    const p = partition<[a: string, b: string]>('P#');
    expect(p('1', '2')).toBe('P#1#2');
    expect(p.prefix).toBe('P#');
    expect(`${guildKey.prefix}5`).toBe(guildKey('5'));
  });

  it('reads a module state item into its record, without its keys', () => {
    const state = ModuleState.parse({
      ...moduleStateKey('1', 'polls'),
      entity: 'module_state',
      enabled: true,
      version: 2,
      created_at: 'a',
      updated_at: 'b',
      settings: { x: 1 },
      settings_id: 9,
    });
    expect(state).toEqual({ enabled: true, version: 2, created_at: 'a', updated_at: 'b', settings: { x: 1 }, settings_id: 9 });
  });
});
