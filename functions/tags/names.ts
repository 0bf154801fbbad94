/**
 * Unique names without transactions. A name belongs to the tag whose item
 * lists it; its pointer item (written only when absent) makes sure no two
 * tags can ever list one name. Changing a tag's names is three steps:
 *
 * 1. claim each new name: write its pointer (absent only) under a claim ID
 *    of this request. A name taken by another tag stops here (422), and the
 *    claims made so far are taken back;
 * 2. switch the tag item to its new names, conditioned on its version;
 * 3. release the names it no longer has (delete their pointers, if still
 *    held by the claim that held them).
 *
 * Until step 2 the tag answers to its old names only; from step 2 on, to
 * its new names only: there is no moment where a name belongs to two tags,
 * or to none while the tag that should hold it exists. A pointer whose tag
 * does not list its name is a claim under way, or one left behind by a
 * crash; after {@link STALE_CLAIM_MS} it may be taken over.
 */
import { mintId } from '#shared/ids.js';
import { type NamePointer, type StoredName, type StoredTag, deletePointer, getPointer, getTag, nameKeyOf, putPointer, replacePointer } from './store.js';

/** Far longer than any request lives (functions time out after seconds): a claim this old was left behind. */
export const STALE_CLAIM_MS = 60_000;

/** What a claim attempt found: every name claimed, a name another tag holds, or a name the same tag took or is taking meanwhile (read it again). */
export type ClaimResult = { ok: true; claimed: StoredName[] } | { ok: false; taken: string; busy: boolean };

/** Whether the tag a pointer names lists the name (the pointer is then the name's owner, not a claim). */
async function pointerHolds(guildId: string, key: string, pointer: NamePointer): Promise<boolean> {
  const tag = await getTag(guildId, pointer.tag_id);
  return Boolean(tag?.names.some((n) => nameKeyOf(n.name) === key && n.claim === pointer.claim));
}

async function claimOne(guildId: string, tagId: string, name: string, pointer: NamePointer): Promise<'ok' | 'taken' | 'busy'> {
  const key = nameKeyOf(name);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await putPointer(guildId, key, pointer)) return 'ok';
    const found = await getPointer(guildId, key);
    if (!found) continue; // released in between: try again
    // Held by this very tag: an edit of it got there first; the caller reads the tag again.
    if (await pointerHolds(guildId, key, found)) return found.tag_id === tagId ? 'busy' : 'taken';
    if (Date.now() - found.claimed_at < STALE_CLAIM_MS) return found.tag_id === tagId ? 'busy' : 'taken';
    if (await replacePointer(guildId, key, found, pointer)) return 'ok';
  }
  return 'taken';
}

/**
 * Claims `names` for a tag (each one's pointer, at once). On any failure
 * the claims made are taken back before answering.
 */
export async function claimNames(guildId: string, tagId: string, names: readonly string[], now: Date, ids: () => Promise<number>): Promise<ClaimResult> {
  const claim = mintId();
  const pointer: NamePointer = { tag_id: tagId, claim, claimed_at: now.getTime() };
  const outcomes = await Promise.all(names.map((name) => claimOne(guildId, tagId, name, pointer)));
  const failed = outcomes.findIndex((o) => o !== 'ok');
  if (failed >= 0) {
    await releaseNames(
      guildId,
      names.filter((_, i) => outcomes[i] === 'ok').map((name) => ({ name, claim })),
    );
    return { ok: false, taken: names[failed]!, busy: outcomes[failed] === 'busy' };
  }
  const createdAt = now.toISOString();
  const claimed = await Promise.all(names.map(async (name) => ({ id: await ids(), name, created_at: createdAt, claim })));
  return { ok: true, claimed };
}

/** Deletes the pointers of these names, each only while its claim still holds it. */
export async function releaseNames(guildId: string, names: readonly Pick<StoredName, 'name' | 'claim'>[]): Promise<void> {
  await Promise.all(names.map((n) => deletePointer(guildId, nameKeyOf(n.name), n.claim)));
}

/**
 * The names a tag gets when its names are replaced by `wanted`: a name it
 * already has (in any case) keeps its record and pointer, taking the new
 * spelling; the others must be claimed.
 */
export function planNames(current: StoredTag, wanted: readonly string[]): { kept: StoredName[]; toClaim: string[]; dropped: StoredName[] } {
  const byKey = new Map(current.names.map((n) => [nameKeyOf(n.name), n]));
  const kept: StoredName[] = [];
  const toClaim: string[] = [];
  for (const name of wanted) {
    const old = byKey.get(nameKeyOf(name));
    if (old) kept.push({ ...old, name });
    else toClaim.push(name);
  }
  const wantedKeys = new Set(wanted.map(nameKeyOf));
  return { kept, toClaim, dropped: current.names.filter((n) => !wantedKeys.has(nameKeyOf(n.name))) };
}
