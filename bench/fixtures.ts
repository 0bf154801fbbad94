/**
 * Request fields the cold-request bench cannot guess from a route's JSON
 * Schema (rules written as refinements: allowed values, fields required
 * together), by route id. Merged over the generated smallest input, so the
 * first request passes validation and reaches the store, as a member's
 * would. `npm run bench` names each route still refused (400/422); add its
 * fields here.
 */
const settings = { limit_roles_to_one: true, supports_remove: true, remove_roles_from_users_on_entry_delete: true, keep_counter_at_one: false, delete_unrelated_emoji_reactions: false };
const poll = { poll_type: 2, poll_answer_type: 2, question: 'Bench?', answers: [{ answer_text: 'A' }, { answer_text: 'B' }], max_votes_per_answer: 1, is_multi_select: false, is_anonymous: false };
const vote = { poll_id: '1234567890123456789', action: 'add', answer_id: 1 };
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

export const fixtures: Record<string, { body?: Record<string, unknown>; query?: Record<string, unknown> }> = {
  'polls.create-poll': { body: { ...poll, poll_duration: '1h' } },
  'polls.edit-poll': { body: { max_votes_per_answer: 1 } },
  'polls.vote': { body: vote },
  'polls.handler-vote': { body: vote },
  'polls.handler-create': { body: { ...poll, end_time: inAnHour() } },
  'polls.handler-edit': { body: { max_votes_per_answer: 1 } },
  'polls.update-settings': { body: { save_duration_timeout: 86_400 } },
  'serverstats.create-counter': { body: { counter_type: 6 } },
  'welcoming.create-response': { body: { response_type: 1 } },
  'reactionroles.create-panel': { body: { is_register: false, panel_type: 'emoji', is_embed: false, content: 'Pick', ...settings } },
  'reactionroles.edit-panel': { body: { panel_type: 'emoji', message_content: 'Pick', message_is_embed: false, ...settings } },
  'reactionroles.check': { body: { interaction_type: 'reaction_add', emoji_name: '😀', emoji_id: null } },
  'socials.stream-refresh-filter': { body: { stream_account: 'bench_user' } },
  'socials.get-uploads-playlist-id': { query: { channel_handle: '@bench_user' } },
  'tags.create-entry': { body: { names: ['bench'], content: 'Bench', visibility: 1 } },
  'reactionroles.add-entry': { body: { role_ids: ['11'], emoji_name: '😀', emoji_id: null } },
};
