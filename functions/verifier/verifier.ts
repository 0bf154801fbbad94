/**
 * The verifier (contract 12): a prompt posted for a member (in the verifier
 * channel, or as a DM), answered by a click (type 1), a passphrase in a
 * modal (type 2) or a web page the service serves (type 3); verifying
 * grants the roles, and only then marks the member verified.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { clockNow } from '../../shared/clock.js';
import { forbidden, notFound, platformFailed, unprocessable } from '../../shared/errors.js';
import { mintOrderedId } from '../../shared/ids.js';
import { recordIdAhead } from '../../shared/db/record-ids.js';
import { assertEnabled } from '../../shared/modules/state.js';
import { isPlatformError, platform } from '../../shared/platform/client.js';
import type { ActionRow, MessageCreate } from '../../shared/platform/types.js';
import { renderMessage } from '../../shared/templates/index.js';
import { variablesFor } from '../../shared/templates/members.js';
import {
  type Verification,
  claimPrompt,
  findVerificationWithState,
  getVerification,
  insertVerification,
  memberPointer,
  openVerificationWithState,
  releasePrompt,
  updateVerification,
} from './store.js';

export const MODULE = 'verifier';
export const MAX_FAILED_ATTEMPTS = 5;
export const LOCKOUT_MS = 10 * 60 * 1000;
const MAX_ATTEMPTS = 8;
/** How long a claimed first prompt may take (platform retries included) before another call takes it over. */
const CLAIM_IN_FLIGHT_MS = 60_000;
/** Calls for a member with an open entry within this long of its last prompt came at once with it: they send no prompt of their own. */
export const RESEND_AFTER_MS = 10_000;

export const VerifierType = { Click: 1, Passphrase: 2, Web: 3 } as const;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();
const publicBase = () => (process.env.PUBLIC_BASE_URL || 'http://127.0.0.1:3000').replace(/\/$/, '');
export const webPageUrl = (verifierId: string, token: string) => `${publicBase()}/modules/verifier/web/${verifierId}?token=${token}`;

function promptButton(type: number, verifierId: string, token: string | null): ActionRow {
  if (type === VerifierType.Web) return { type: 1, components: [{ type: 2, style: 5, label: 'Verify on the web', url: webPageUrl(verifierId, token!) }] };
  if (type === VerifierType.Passphrase) return { type: 1, components: [{ type: 2, style: 1, label: 'Enter passphrase', custom_id: `verifier:passphrase:${verifierId}` }] };
  return { type: 1, components: [{ type: 2, style: 3, label: 'Verify', custom_id: `verifier:click:${verifierId}` }] };
}

/** `/event/create-verification` (acting member: who is to be verified). */
export async function createVerification(guildId: string, memberId: string, requesterId: string) {
  // Taken beside the read; an open verification reused leaves it unused.
  const id = recordIdAhead('verifier.entry');
  const { state, open: reused, latest, pointer } = await openVerificationWithState(guildId, memberId);
  const settings = assertEnabled(guildId, MODULE, state).settings ?? {};
  const type = Number(settings.verifier_type ?? VerifierType.Click);
  if (type === VerifierType.Passphrase && !settings.verifier_passphrase) {
    throw unprocessable('The verifier is set to type 2 (passphrase) but has no verifier_passphrase; set one with PUT /modules/verifier/settings.');
  }
  const token = type === VerifierType.Web ? randomBytes(32).toString('base64url') : null;
  const now = new Date();
  const claim = { verifier_id: reused?.verifier_id ?? mintOrderedId(now.getTime()), prompt: randomBytes(16).toString('hex'), claimed_at: clockNow() };
  const sinceClaim = pointer ? claim.claimed_at - pointer.claimed_at : Number.POSITIVE_INFINITY;
  // A pointer to no entry yet, claimed moments ago: another call's first prompt is under way (older: it crashed, and is taken over).
  // An open entry prompted moments ago: this call came at once with that one, which sent the member's prompt.
  const underWay = pointer !== null && ((latest === null && sinceClaim < CLAIM_IN_FLIGHT_MS) || (reused !== null && sinceClaim < RESEND_AFTER_MS));
  if (underWay || !(await claimPrompt(guildId, memberId, pointer, claim))) {
    // Another call for the member claimed the prompt first: its entry and its one prompt are the member's.
    const current = underWay ? pointer : await memberPointer(guildId, memberId);
    return { message: `The verification prompt for member ${memberId} is being sent by a call made at the same time; this one sent none.`, verifier_id: current?.verifier_id ?? claim.verifier_id };
  }
  const entry: Verification = reused ?? {
    id: await id,
    guild_id: guildId,
    verifier_id: claim.verifier_id,
    user_id: memberId,
    requester_id: requesterId,
    is_verified: false,
    verify_message_id: null,
    verify_channel_id: null,
    timestamp: now.toISOString(),
    verified_at: null,
    failed_attempts: 0,
    _token_hash: null,
    _locked_until: 0,
    _version: 1,
  };
  let channelId: string;
  let message: { id: string };
  try {
    channelId = typeof settings.verifier_channel === 'string' ? settings.verifier_channel : (await platform.createDm(memberId)).id;
    const content = String(settings.verifier_message_content ?? 'Press the button below to verify.');
    const body: MessageCreate = {
      ...renderMessage(content, settings.verifier_message_is_embed === true, await variablesFor(guildId, memberId, content), { users: [memberId] }),
      components: [promptButton(type, entry.verifier_id, token)],
    };
    message = await platform.createMessage(channelId, body);
  } catch (error) {
    await releasePrompt(guildId, memberId, claim, pointer).catch(() => undefined);
    throw error;
  }
  const fields = { verify_message_id: message.id, verify_channel_id: channelId, requester_id: requesterId, _token_hash: token ? sha256(token).toString('hex') : null };
  if (reused) {
    if (!(await updateVerification(reused, fields))) throw unprocessable(`The verification of member ${memberId} changed while its prompt was sent again; try again.`);
  } else {
    await insertVerification({ ...entry, ...fields });
  }
  return { message: `The verification prompt was ${reused ? 'sent again' : 'sent'} to member ${memberId}${typeof settings.verifier_channel === 'string' ? ` in channel ${channelId}` : ' as a DM'}.`, verifier_id: entry.verifier_id };
}

const noVerification = (verifierId: string) => notFound(`There is no verification ${verifierId}.`);

/** The entry as stored now, read again after a conditional write lost to another change; 404 when it is gone. */
async function reread(entry: Verification): Promise<Verification> {
  const current = await getVerification(entry.guild_id, entry.verifier_id);
  if (!current) throw noVerification(entry.verifier_id);
  return current;
}

/**
 * Grants the roles, then marks the entry verified: a refused role is a 502
 * and the member stays unverified. An entry changed since it was read (its
 * prompt sent again) is read again and marked; one verified meanwhile means
 * two answers came at once, and only one counts; so does a new prompt's
 * link replacing the one answered through.
 */
async function verify(entry: Verification, settings: Record<string, unknown>): Promise<void> {
  const roles = String(settings.verifier_verified_role_ids ?? '').split(',').filter(Boolean);
  for (const role of roles) {
    try {
      await platform.addMemberRole(entry.guild_id, entry.user_id, role);
    } catch (error) {
      if (isPlatformError(error)) throw platformFailed(`Role ${role} could not be granted to member ${entry.user_id} (${error.reason.replace(/\.$/, '')}); the member is not verified.`);
      throw error;
    }
  }
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (await updateVerification(entry, { is_verified: true, verified_at: new Date().toISOString(), _token_hash: null })) return;
    const current = await reread(entry);
    // Verified meanwhile, or a new prompt replaced the link this answer came through.
    if (current.is_verified || current._token_hash !== entry._token_hash) break;
    entry = current;
  }
  throw unprocessable(`Verification ${entry.verifier_id} was answered twice at once; only one answer counts.`);
}

export interface Answer {
  interaction_id: string | null;
  token: string | null;
  interaction_type: string | null;
  passphrase_value: string | null;
}

async function completedMessage(settings: Record<string, unknown>, guildId: string, memberId: string) {
  const content = String(settings.verifier_message_content_completed ?? 'You are verified.');
  return renderMessage(content, settings.verifier_message_completed_is_embed === true, await variablesFor(guildId, memberId, content), { parse: [] });
}

/** `/event/handle-verification`: the entry's own member answers a prompt (a click, or the passphrase modal). */
export async function handleVerification(verifierId: string, actor: string, answer: Answer) {
  const found = await findVerificationWithState(verifierId);
  if (!found) throw noVerification(verifierId);
  const { entry } = found;
  if (entry.user_id !== actor) throw forbidden(`Verification ${verifierId} belongs to member ${entry.user_id}; member ${actor} cannot answer it.`);
  const settings = assertEnabled(entry.guild_id, MODULE, found.state).settings ?? {};
  if (entry.is_verified) throw unprocessable(`Member ${actor} is already verified (${verifierId}).`);
  const type = Number(settings.verifier_type ?? VerifierType.Click);
  const interaction = answer.interaction_id && answer.token ? { id: answer.interaction_id, token: answer.token } : null;

  if (type === VerifierType.Passphrase) {
    if (answer.interaction_type !== 'ModalInteraction') {
      if (!interaction) throw unprocessable('A passphrase verification is answered with a modal: give interaction_id and token of the click.');
      await platform.interactionCallback(interaction.id, interaction.token, {
        type: 9,
        data: {
          custom_id: `verifier:modal:${verifierId}`,
          title: 'Verification',
          components: [{ type: 1, components: [{ type: 4, custom_id: 'passphrase', label: 'Passphrase', style: 1, min_length: 1, max_length: 100, required: true }] }],
        },
      });
      return { message: `Member ${actor} was asked for the passphrase.` };
    }
    await checkPassphrase(entry, String(settings.verifier_passphrase ?? ''), answer.passphrase_value ?? '');
  } else if (type === VerifierType.Web && answer.interaction_type !== 'WebLogin') {
    throw unprocessable(`Verification ${verifierId} is answered on its web page (verifier_type 3).`);
  }
  await verify(entry, settings);
  if (interaction) {
    const body = await completedMessage(settings, entry.guild_id, actor);
    await platform.interactionCallback(interaction.id, interaction.token, { type: 4, data: { ...body, flags: 64 } });
  }
  return { message: `Member ${actor} is verified.` };
}

/** A wrong passphrase counts; the fifth in a row locks answers out for 10 minutes. Compared in constant time. */
async function checkPassphrase(entry: Verification, passphrase: string, given: string): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const now = clockNow();
    if (entry._locked_until > now) {
      throw unprocessable(`Too many wrong passphrases: verification ${entry.verifier_id} takes no answer until ${new Date(entry._locked_until).toISOString()}.`);
    }
    if (passphrase && timingSafeEqual(sha256(passphrase), sha256(given))) return;
    const failed = entry.failed_attempts + 1;
    const fields = failed % MAX_FAILED_ATTEMPTS === 0 ? { failed_attempts: failed, _locked_until: now + LOCKOUT_MS } : { failed_attempts: failed };
    if (await updateVerification(entry, fields)) {
      throw unprocessable(`The passphrase is wrong (${failed} wrong so far${fields._locked_until ? '; answers are refused for 10 minutes' : ''}).`);
    }
    entry = await reread(entry);
  }
  throw unprocessable('The passphrase could not be checked; try again.');
}

type Found = NonNullable<Awaited<ReturnType<typeof findVerificationWithState>>>;

/** The web page's token: its verification (with the module state), if the token is the one sent and not used yet. */
export async function entryOfToken(verifierId: string, token: string | undefined): Promise<Found | null> {
  if (!token) return null;
  const found = await findVerificationWithState(verifierId);
  if (!found?.entry._token_hash || found.entry.is_verified) return null;
  const expected = Buffer.from(found.entry._token_hash, 'hex');
  const given = sha256(token);
  return expected.length === given.length && timingSafeEqual(expected, given) ? found : null;
}

/** The web page's POST: verifies as a WebLogin (the token is used up). */
export async function verifyOnTheWeb({ entry, state }: Found): Promise<string> {
  const settings = assertEnabled(entry.guild_id, MODULE, state).settings ?? {};
  await verify(entry, settings);
  const completed = await completedMessage(settings, entry.guild_id, entry.user_id);
  return completed.content ?? completed.embeds?.[0]?.description ?? 'You are verified.';
}
