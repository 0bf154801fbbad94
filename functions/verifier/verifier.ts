/**
 * The verifier (behaviour §12): a prompt posted for a member (in the verifier
 * channel, or as a DM), answered by a click (type 1), a passphrase in a
 * modal (type 2) or a web page the service serves (type 3); verifying
 * grants the roles, and only then marks the member verified.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { clockNow } from '#shared/clock.js';
import { forbidden, notFound, platformFailed, unprocessable } from '#shared/errors.js';
import { mintOrderedId } from '#shared/ids.js';
import { recordIdAhead } from '#shared/db/record-ids.js';
import { assertEnabled } from '#shared/modules/state.js';
import { isPlatformError, platform } from '#shared/platform/client.js';
import type { ActionRow, MessageCreate } from '#shared/platform/types.js';
import { renderMessage } from '#shared/templates/index.js';
import { variablesFor } from '#shared/templates/members.js';
import {
  type Verification,
  claimPrompt,
  findVerificationWithState,
  getVerification,
  insertVerification,
  memberPointer,
  openVerificationWithState,
  releasePrompt,
  storedSince,
  updateVerification,
} from './store.js';

export const MODULE = 'verifier';
export const MAX_FAILED_ATTEMPTS = 5;
export const LOCKOUT_MS = 10 * 60 * 1000;
const MAX_ATTEMPTS = 8;
/**
 * A claimed prompt its entry does not carry after this long belongs to a
 * call that died (no call lives this long: API Gateway gives up after
 * 29 s), and is taken over. It tells a dead claim from a live one, never a repeat from a
 * new call.
 */
const CLAIM_IN_FLIGHT_MS = 60_000;

export const VerifierType = { Click: 1, Passphrase: 2, Web: 3 } as const;

/** How long a web link works (`VERIFIER_LINK_SECONDS`, default one day). */
export function linkLifetimeMs(): number {
  const seconds = Number(process.env.VERIFIER_LINK_SECONDS);
  return (Number.isInteger(seconds) && seconds > 0 ? seconds : 86_400) * 1000;
}

/**
 * The settings field (internal, never answered) holding when the verifier
 * type last changed: a web link issued before then is void, even if the
 * type is 3 again, so a link lives only while the type is still the 3 it
 * was issued under.
 */
export const LINKS_SINCE = '_web_links_since';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();
const publicBase = () => (process.env.PUBLIC_BASE_URL || 'http://127.0.0.1:3000').replace(/\/$/, '');
export const webPageUrl = (verifierId: string, token: string) => `${publicBase()}/modules/verifier/web/${verifierId}?token=${token}`;

function promptButton(type: number, verifierId: string, token: string | null): ActionRow {
  if (type === VerifierType.Web) return { type: 1, components: [{ type: 2, style: 5, label: 'Verify on the web', url: webPageUrl(verifierId, token!) }] };
  if (type === VerifierType.Passphrase)
    return { type: 1, components: [{ type: 2, style: 1, label: 'Enter passphrase', custom_id: `verifier:passphrase:${verifierId}` }] };
  return { type: 1, components: [{ type: 2, style: 3, label: 'Verify', custom_id: `verifier:click:${verifierId}` }] };
}

/** `/event/create-verification` (acting member: who is to be verified). */
export async function createVerification(guildId: string, memberId: string, requesterId: string) {
  // A link's life starts before the settings are read, so a type change racing this prompt voids it.
  const issuedAt = clockNow();
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
  // A claim its entry does not carry yet: a call made at once with this one is sending the member's prompt. Once that call has
  // written the entry (after the prompt went out), a call sends the prompt again. A pointer to an entry stored before the
  // module's data was deleted names nothing in flight.
  const pointed = latest ? latest._prompt !== pointer?.prompt : pointer !== null && storedSince(pointer, state?.data_since);
  const underWay = pointer?.prompt != null && pointed && claim.claimed_at - pointer.claimed_at < CLAIM_IN_FLIGHT_MS;
  if (underWay || !(await claimPrompt(guildId, memberId, pointer, claim))) {
    // Another call for the member claimed the prompt first: its entry and its one prompt are the member's.
    const current = underWay ? pointer : await memberPointer(guildId, memberId);
    return {
      message: `The verification prompt for member ${memberId} is being sent by a call made at the same time; this one sent none.`,
      verifier_id: current?.verifier_id ?? claim.verifier_id,
    };
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
    _token_issued_at: 0,
    _token_expires_at: 0,
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
  const fields = {
    // This claim's prompt went out: from this write on, a call for the member sends it again.
    _prompt: claim.prompt,
    verify_message_id: message.id,
    verify_channel_id: channelId,
    requester_id: requesterId,
    // A prompt sent again replaces the link: the one before no longer works.
    _token_hash: token ? sha256(token).toString('hex') : null,
    _token_issued_at: token ? issuedAt : 0,
    _token_expires_at: token ? issuedAt + linkLifetimeMs() : 0,
  };
  if (reused) {
    if (!(await updateVerification(reused, fields)))
      throw unprocessable(`The verification of member ${memberId} changed while its prompt was sent again; try again.`);
  } else {
    await insertVerification({ ...entry, ...fields });
  }
  return {
    message: `The verification prompt was ${reused ? 'sent again' : 'sent'} to member ${memberId}${typeof settings.verifier_channel === 'string' ? ` in channel ${channelId}` : ' as a DM'}.`,
    verifier_id: entry.verifier_id,
  };
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
 * two answers came at once, and only one counts: the other answers false,
 * as does an answer through a link a new prompt replaced.
 */
async function verify(entry: Verification, settings: Record<string, unknown>): Promise<boolean> {
  const roles = String(settings.verifier_verified_role_ids ?? '')
    .split(',')
    .filter(Boolean);
  for (const role of roles) {
    try {
      await platform.addMemberRole(entry.guild_id, entry.user_id, role);
    } catch (error) {
      if (isPlatformError(error))
        throw platformFailed(`Role ${role} could not be granted to member ${entry.user_id} (${error.reason.replace(/\.$/, '')}); the member is not verified.`);
      throw error;
    }
  }
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (await updateVerification(entry, { is_verified: true, verified_at: new Date().toISOString(), _token_hash: null })) return true;
    const current = await reread(entry);
    // Verified meanwhile, or a new prompt replaced the link this answer came through.
    if (current.is_verified || current._token_hash !== entry._token_hash) return false;
    entry = current;
  }
  throw unprocessable(`Verification ${entry.verifier_id} kept changing while it was marked verified; try again.`);
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
          components: [
            { type: 1, components: [{ type: 4, custom_id: 'passphrase', label: 'Passphrase', style: 1, min_length: 1, max_length: 100, required: true }] },
          ],
        },
      });
      return { message: `Member ${actor} was asked for the passphrase.` };
    }
    await checkPassphrase(entry, String(settings.verifier_passphrase ?? ''), answer.passphrase_value ?? '');
  } else if (type === VerifierType.Web && answer.interaction_type !== 'WebLogin') {
    throw unprocessable(`Verification ${verifierId} is answered on its web page (verifier_type 3).`);
  }
  if (!(await verify(entry, settings))) throw unprocessable(`Verification ${verifierId} was answered twice at once; only one answer counts.`);
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
      throw unprocessable(
        `Too many wrong passphrases: verification ${entry.verifier_id} takes no answer until ${new Date(entry._locked_until).toISOString()}.`,
      );
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

/**
 * The web page's token: its verification (with the module state), if the
 * token is the one last sent, not used, not expired, and the verifier type
 * is still the 3 it was issued under. Null otherwise (the 403 page).
 */
export async function entryOfToken(verifierId: string, token: string | undefined): Promise<Found | null> {
  if (!token) return null;
  const found = await findVerificationWithState(verifierId);
  const hash = found?.entry._token_hash;
  if (!found || !hash || found.entry.is_verified) return null;
  const { entry, state } = found;
  const settings = state?.settings ?? {};
  // Entries stored before links expired have no expiry: they are void too.
  if (clockNow() >= (entry._token_expires_at ?? 0)) return null;
  if (Number(settings.verifier_type ?? VerifierType.Click) !== VerifierType.Web) return null;
  if ((entry._token_issued_at ?? 0) < Number(settings[LINKS_SINCE] ?? 0)) return null;
  const expected = Buffer.from(hash, 'hex');
  const given = sha256(token);
  return expected.length === given.length && timingSafeEqual(expected, given) ? found : null;
}

/** The web page's POST: verifies as a WebLogin (the token is used up); null when another answer came first. */
export async function verifyOnTheWeb({ entry, state }: Found): Promise<string | null> {
  const settings = assertEnabled(entry.guild_id, MODULE, state).settings ?? {};
  if (!(await verify(entry, settings))) return null;
  const completed = await completedMessage(settings, entry.guild_id, entry.user_id);
  return completed.content ?? completed.embeds?.[0]?.description ?? 'You are verified.';
}
