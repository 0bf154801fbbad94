import type { LocalService } from '#infra/local/start.js';

/** The guild of the bench's requests; each cold request has its own in its place. */
export const GUILD = '1234567890123456789';
/** The member every bench request acts as (`X-Acting-User-Id`); what it edits, it owns. */
export const MEMBER = '2234567890123456789';

/** A reaction-role panel's settings, as the bench creates and edits panels. */
export const PANEL_SETTINGS = {
  limit_roles_to_one: true,
  supports_remove: true,
  remove_roles_from_users_on_entry_delete: true,
  keep_counter_at_one: false,
  delete_unrelated_emoji_reactions: false,
};
const poll = {
  poll_type: 2,
  poll_answer_type: 2,
  question: 'Bench?',
  answers: [{ answer_text: 'A' }, { answer_text: 'B' }],
  max_votes_per_answer: 1,
  is_multi_select: false,
  is_anonymous: false,
};
const vote = { action: 'add', answer_id: 1 };
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

/**
 * Request fields the cold-request bench cannot guess from a route's JSON
 * Schema (rules written as refinements: allowed values, fields required
 * together), by route id. Merged over the generated smallest input, so the
 * first request passes validation and reaches the store, as a member's
 * would. `npm run bench` names each route still refused (400/422); add its
 * fields here.
 */
export const fixtures: Record<string, { body?: Record<string, unknown>; query?: Record<string, unknown> }> = {
  'polls.create-poll': { body: { ...poll, poll_duration: '1h' } },
  'polls.edit-poll': { body: { max_votes_per_answer: 1 } },
  'polls.vote': { body: vote },
  'polls.handler-vote': { body: vote },
  // The bot registers a poll whose message it has not posted yet (a message it names must exist in the channel).
  'polls.handler-create': { body: { ...poll, end_time: inAnHour(), message_id: null } },
  'polls.handler-edit': { body: { max_votes_per_answer: 1 } },
  'polls.update-settings': { body: { save_duration_timeout: 86_400 } },
  'serverstats.create-counter': { body: { counter_type: 6 } },
  // The starboard channel is the sample channel; the counters' category, a category, is left as it is.
  'serverstats.update-settings': { body: { counters_category_id: null } },
  // One guild's counters, as the bot asks after a change; without a guild it is every guild the bench made.
  'serverstats.update-counters': { body: { guild_id: GUILD } },
  'welcoming.create-response': { body: { response_type: 1 } },
  'reactionroles.create-panel': { body: { is_register: false, panel_type: 'emoji', is_embed: false, content: 'Pick', ...PANEL_SETTINGS } },
  'reactionroles.edit-panel': { body: { panel_type: 'emoji', message_content: 'Pick', message_is_embed: false, ...PANEL_SETTINGS } },
  'reactionroles.check': { body: { interaction_type: 'reaction_add', emoji_name: '😀', emoji_id: null } },
  'socials.stream-refresh-filter': { body: { stream_account: 'bench_user' } },
  'socials.get-uploads-playlist-id': { query: { channel_handle: '@bench_user' } },
  'tags.create-entry': { body: { names: ['bench'], content: 'Bench', visibility: 1 } },
  'reactionroles.add-entry': { body: { role_ids: ['11'], emoji_name: '😀', emoji_id: null } },
  // A message the bot batched a second ago: the time is read when the request is built, as a record's `at` must be at most 15 minutes old.
  'serverstats.record-batch': {
    get body() {
      return {
        records: [
          {
            family: 'messages/sent',
            at: new Date(Date.now() - 1000).toISOString(),
            channel_id: '3234567890123456789',
            author_id: MEMBER,
            message_id: '4234567890123456789',
          },
        ],
      };
    },
  },
};

/** Input that names what a setup made: path parameters, body fields, query fields, headers (a cookie, another acting member). */
export interface Input {
  path?: Record<string, string>;
  body?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** A request to the sandbox platform (POST unless `method` says) with `body`: a control route (under `/_sandbox`), or with `api` its platform API as the bot; `take` as in {@link Make}. */
export interface Sandbox {
  method?: 'POST' | 'PUT';
  path: string;
  api?: boolean;
  body?: Record<string, unknown>;
  take?: Record<string, string>;
}

/** One record made through local mode: the module's own route, sent with its bench input and `input`. */
export interface Make {
  route: string;
  input?: (ids: Record<string, string>) => Input;
  /** Names for values of the answer's `data`, by dotted path; later steps and the request use them. */
  take?: Record<string, string>;
}

/**
 * What a member's request meets, made before each cold request (untimed) in
 * the request's own guild, after its module is enabled: the poll voted on,
 * the panel reacted to, the tag sent. Without it the request would answer
 * 404 after its first read and never do its work. `sandbox` are control
 * routes of the sandbox platform to call first (a watched community, a
 * channel of videos).
 */
export interface Setup {
  sandbox?: Sandbox[];
  make?: Make[];
  /** More names, read from the sandbox platform's state after the steps (what a member was shown). */
  shown?: (state: string, ids: Record<string, string>) => Record<string, string>;
  /**
   * Last, what no route of the service makes, in the bench's own process
   * against the same table and platform: a job's run (local mode runs no jobs
   * here), a member's sign-in through the platform's pages. Answers more names.
   */
  run?: (service: LocalService, guild: string, ids: Record<string, string>) => Promise<Record<string, string>>;
  input?: (ids: Record<string, string>) => Input;
}

const aPoll: Make = { route: 'polls.create-poll', input: () => ({ body: { poll_owner_id: MEMBER } }), take: { poll: 'poll.poll_id' } };
const pollPath: Setup = { make: [aPoll], input: (ids) => ({ path: { poll_id: ids.poll! } }) };
const pollBody: Setup = { make: [aPoll], input: (ids) => ({ body: { poll_id: ids.poll } }) };
const aGiveaway: Make = { route: 'giveaways.create-entry', input: () => ({ body: { giveaway_owner_id: MEMBER } }), take: { entry: 'entry.entry_id' } };
const onGiveaway = (ids: Record<string, string>): Input => ({ path: { entry_id: ids.entry! } });
const giveaway: Setup = { make: [aGiveaway], input: onGiveaway };
/** A member other than {@link MEMBER}, entering too: a reroll draws who the first round did not. */
const OTHER_MEMBER = '2234567890123456790';
const entrant = (member: string): Make => ({ route: 'giveaways.enter', input: (ids) => ({ ...onGiveaway(ids), headers: { 'x-acting-user-id': member } }) });
/**
 * A giveaway with two entrants, ended by its owner and then by its end job
 * (run here to completion, as local mode's jobs would within seconds): its
 * first round drew one of the two, and a reroll draws the other.
 */
const endedGiveaway: Setup = {
  make: [aGiveaway, entrant(MEMBER), entrant(OTHER_MEMBER), { route: 'giveaways.end-entry', input: onGiveaway }],
  run: async (_service, guild, ids) => {
    const { endGiveaway } = await import('#functions/giveaways/lifecycle.js');
    // Each run answers whether more is left (a piece of the draw, the announcement); local mode would run it again at once.
    let more = await endGiveaway(guild, ids.entry!);
    while (more) more = await endGiveaway(guild, ids.entry!);
    return {};
  },
  input: onGiveaway,
};
const panel: Make = { route: 'reactionroles.create-panel', take: { panel: 'panel.panel_id', message: 'panel.message_id', channel: 'panel.channel_id' } };
const panelEntry: Make = {
  route: 'reactionroles.add-entry',
  input: (ids) => ({ path: { reactionrole_panel_id: ids.panel! } }),
  take: { entry: 'entry.entry_id' },
};
const onPanel: Setup = { make: [panel], input: (ids) => ({ path: { reactionrole_panel_id: ids.panel! } }) };
const onPanelEntry: Setup = { make: [panel, panelEntry], input: (ids) => ({ path: { reactionrole_panel_id: ids.panel!, reactionrole_entry_id: ids.entry! } }) };
const tag: Setup = { make: [{ route: 'tags.create-entry', take: { tag: 'entry.tag_id' } }], input: (ids) => ({ path: { entry_id: ids.tag! } }) };
const response: Setup = {
  make: [{ route: 'welcoming.create-response', take: { id: 'response.response_id' } }],
  input: (ids) => ({ path: { response_id: ids.id! } }),
};
const timedrole: Setup = {
  make: [{ route: 'welcoming.create-timedrole', take: { id: 'timedrole.timedrole_id' } }],
  input: (ids) => ({ path: { timedrole_id: ids.id! } }),
};
const counterSettings: Make = { route: 'serverstats.update-settings', input: () => ({ body: { counters_enabled: true, counters_category_id: 'create' } }) };
const counter: Setup = {
  make: [counterSettings, { route: 'serverstats.create-counter', take: { id: 'counter.counter_id' } }],
  input: (ids) => ({ path: { counter_id: ids.id! } }),
};
const verification: Make = { route: 'verifier.create-verification', take: { id: 'verifier_id' } };
/** A verification on the web: its link, with the one-time token, is in the prompt the member was sent. */
const onTheWeb: Setup = {
  make: [{ route: 'verifier.update-settings', input: () => ({ body: { verifier_type: 3 } }) }, verification],
  shown: (state, ids) => ({ token: new RegExp(`/web/${ids.id}\\?token=([\\w-]+)`).exec(state)?.[1] ?? '' }),
  input: (ids) => ({ path: { verifier_id: ids.id! }, query: { token: ids.token } }),
};
const forum: Setup = { sandbox: [{ path: '/sources/forum/a' }] };

const anApiKey: Make = { route: 'auth.create-api-key', take: { id: 'api_key.key_id' } };

/** The guild made on the sandbox with the member in it allowed to manage it (Manage Server), as the dashboard lists it. */
const managedGuild: Sandbox[] = [
  { method: 'PUT', path: `/guilds/${GUILD}`, body: { name: 'Bench guild' } },
  { path: `/guilds/${GUILD}/members/${MEMBER}/join`, body: { username: 'bench' } },
  { method: 'PUT', path: `/guilds/${GUILD}/members/${MEMBER}/permissions`, body: { permissions: '32' } },
];

/** The `name=value` of a `Set-Cookie` header, as a browser sends it back. */
const cookiePair = (setCookie: string | null) => (setCookie ?? '').split(';')[0]!;

/** A redirect's target; throws with the page when the answer is not one. */
async function redirectOf(res: Response): Promise<URL> {
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`${res.url}: ${res.status}, not a redirect: ${await res.text()}`);
  return new URL(location, res.url);
}

/**
 * {@link MEMBER} signing in to the dashboard as a browser does: local mode's
 * login page, the sandbox platform's authorize form approved, and, to
 * `finish`, local mode's callback. Answers the callback's code and state with
 * the login cookie, or the session's cookie once finished.
 */
async function signIn(service: LocalService, finish: boolean): Promise<Record<string, string>> {
  const login = await fetch(`${service.url}/dashboard/login`, { redirect: 'manual' });
  const loginCookie = cookiePair(login.headers.get('set-cookie'));
  const authorize = await redirectOf(login);
  const form = new URLSearchParams(authorize.searchParams);
  form.set('user_id', MEMBER);
  form.set('decision', 'approve');
  const back = await redirectOf(
    await fetch(new URL('/oauth2/authorize', authorize), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    }),
  );
  if (!finish) return { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '', cookie: loginCookie };
  const callback = await fetch(back, { redirect: 'manual', headers: { cookie: loginCookie } });
  await redirectOf(callback);
  return { cookie: cookiePair(callback.headers.get('set-cookie')) };
}

/**
 * A poll's close, parked as if it had failed on its last delivery (behaviour
 * §9.1: local mode runs no jobs here to fail it five times); the replay
 * names it.
 */
const parkedClose: Setup = {
  // The replay's route is no module's, so polls is enabled here.
  make: [{ route: 'polls.enable' }, aPoll],
  run: async (_service, guild, ids) => {
    const [{ dueKeyOf }, { PollJobs }, { parkDue }, { parkedId }] = await Promise.all([
      import('#functions/polls/keys.js'),
      import('#functions/polls/jobs.js'),
      import('#shared/scheduler/store.js'),
      import('#shared/scheduler/parked.js'),
    ]);
    const key = dueKeyOf(guild, ids.poll!);
    if (!(await parkDue(PollJobs.close, key, null, 'The platform answered 500', Date.now()))) throw new Error(`no ${PollJobs.close} due for ${key}`);
    return { parked: parkedId(PollJobs.close, key) };
  },
  input: (ids) => ({ body: { id: ids.parked } }),
};

export const setups: Record<string, Setup> = {
  'polls.get-poll': pollPath,
  'polls.edit-poll': pollPath,
  'polls.delete-poll': pollPath,
  'polls.close-poll': pollPath,
  'polls.vote': pollBody,
  'polls.handler-vote': pollBody,
  'polls.handler-edit': pollBody,
  'polls.handler-close': pollBody,
  'polls.handler-delete': pollBody,
  'polls.list-voters': { make: [aPoll, { route: 'polls.vote', input: (ids) => ({ body: { poll_id: ids.poll } }) }], input: pollPath.input },
  'giveaways.get-entry': giveaway,
  'giveaways.edit-entry': giveaway,
  'giveaways.delete-entry': giveaway,
  'giveaways.enter': giveaway,
  'giveaways.leave': { make: [aGiveaway, { route: 'giveaways.enter', input: onGiveaway }], input: onGiveaway },
  'giveaways.end-entry': giveaway,
  'giveaways.list-participants': { make: [aGiveaway, entrant(MEMBER)], input: onGiveaway },
  'giveaways.reroll': endedGiveaway,
  'reactionroles.get-panel': onPanel,
  'reactionroles.edit-panel': onPanel,
  'reactionroles.delete-panel': onPanel,
  'reactionroles.list-entries': onPanel,
  'reactionroles.add-entry': onPanel,
  'reactionroles.get-entry': onPanelEntry,
  'reactionroles.edit-entry': onPanelEntry,
  'reactionroles.delete-entry': onPanelEntry,
  'reactionroles.check': { make: [panel, panelEntry], input: (ids) => ({ body: { channel_id: ids.channel, message_id: ids.message } }) },
  'tags.get-entry': tag,
  'tags.update-entry': tag,
  'tags.delete-entry': tag,
  'tags.send-entry': tag,
  'welcoming.get-response': response,
  'welcoming.delete-response': response,
  'welcoming.get-timedrole': timedrole,
  'welcoming.delete-timedrole': timedrole,
  'serverstats.create-counter': { make: [counterSettings] },
  'serverstats.get-counter': counter,
  'serverstats.delete-counter': counter,
  'verifier.get-entry': { make: [verification], input: (ids) => ({ path: { entry_id: ids.id! } }) },
  'verifier.handle-verification': { make: [verification], input: (ids) => ({ body: { verifier_id: ids.id } }) },
  'verifier.web-page': onTheWeb,
  'verifier.web-verify': onTheWeb,
  'invite-tracker.invite-created': {
    sandbox: [
      { method: 'PUT', path: `/channels/${GUILD}`, body: { guild_id: GUILD } },
      { path: `/channels/${GUILD}/invites`, api: true, body: { max_age: 0 }, take: { code: 'code' } },
    ],
    input: (ids) => ({ body: { invite_code: ids.code } }),
  },
  'invite-tracker.delete-invite': {
    make: [{ route: 'invite-tracker.create-invite', take: { code: 'invite_code' } }],
    input: (ids) => ({ body: { invite_code: ids.code } }),
  },
  'auth.delete-api-key': { make: [anApiKey], input: (ids) => ({ body: { key_id: ids.id } }) },
  'auth.get-api-key': { make: [anApiKey], input: (ids) => ({ path: { key_id: ids.id! } }) },
  'parked.replay': parkedClose,
  'dashboard.callback': {
    sandbox: managedGuild,
    run: (service) => signIn(service, false),
    input: (ids) => ({ query: { code: ids.code, state: ids.state }, headers: { cookie: ids.cookie! } }),
  },
  'dashboard.guild': { sandbox: managedGuild, run: (service) => signIn(service, true), input: (ids) => ({ headers: { cookie: ids.cookie! } }) },
  // A community of the guild's own: the first to watch a community also starts its polling, as every cold request then does.
  'socials.create-forum': { sandbox: [{ path: `/sources/forum/${GUILD}` }], input: () => ({ body: { community: GUILD } }) },
  'socials.delete-forum': { ...forum, make: [{ route: 'socials.create-forum' }] },
  'socials.get-uploads-playlist-id': { sandbox: [{ path: '/sources/video/@bench_user' }] },
  'socials.stream-refresh-filter': { sandbox: [{ path: '/sources/stream/bench_user' }] },
  'socials.send-meme': {
    sandbox: [{ path: `/channels/${GUILD}/messages`, api: true, body: { content: 'A meme goes here' }, take: { message: 'id' } }],
    input: (ids) => ({ body: { message_id: ids.message } }),
  },
};
