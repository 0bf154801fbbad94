/**
 * The verifier through the whole loop: a member joins on the sandbox, the
 * bot asks the service for the verification prompt, the member clicks it,
 * answers the passphrase modal the service opens, and holds the verified
 * role; a wrong passphrase changes nothing and says why.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok, snowflake } from '#test/helpers/local.js';
import { membersOf } from '#test/integration/welcoming/members-sandbox.js';
import { eventually, type Loop, startLoop } from './loop.js';

let loop: Loop;
beforeAll(async () => {
  loop = await startLoop();
});
afterAll(() => loop?.stop());

it('a member who joins answers the passphrase modal and is given the verified role', async () => {
  const { service, sandbox } = loop;
  const guild = snowflake();
  const [channel, role] = [await sandbox.channelIn(guild), await sandbox.roleIn(guild)];
  ok(await service.call('POST', '/modules/verifier/enable', { body: { guild_id: guild } }));
  ok(
    await service.call('PUT', '/modules/verifier/settings', {
      body: { guild_id: guild, verifier_type: 2, verifier_passphrase: 'open sesame', verifier_channel: channel, verifier_verified_role_ids: [role] },
    }),
  );
  const member = snowflake();
  await membersOf(service).join(guild, member);

  const prompt = await eventually(
    async () => (await sandbox.state()).channels.find((c) => c.id === channel)?.messages?.find((m) => JSON.stringify(m.components ?? []).includes('verifier:')),
    15_000,
    `the verification prompt\n${loop.botLines.join('\n')}`,
  );
  const button = (prompt.components as { components: { custom_id: string }[] }[])[0]!.components[0]!;
  const click = () => loop.act('POST', `/_sandbox/channels/${channel}/messages/${prompt.id}/click`, { user_id: member, custom_id: button.custom_id });
  const submit = async (passphrase: string) => {
    const { interaction_id } = await click();
    await eventually(async () => (await loop.act('GET', `/_sandbox/interactions/${interaction_id}`)).answers.length > 0, 15_000, 'the modal');
    const submitted = await loop.act('POST', `/_sandbox/interactions/${interaction_id}/submit`, {
      user_id: member,
      custom_id: button.custom_id.replace(/^verifier:passphrase:/, 'verifier:modal:'),
      values: { passphrase },
    });
    return eventually(
      async () => {
        const texts = await loop.toldMember(submitted.interaction_id);
        return texts.length > 0 && texts.join('\n');
      },
      15_000,
      'the answer to the modal',
    );
  };

  expect(await submit('wrong')).toContain('The passphrase is wrong');
  expect(await sandbox.roles(guild, member)).not.toContain(role);
  expect(await submit('open sesame')).toContain('verified');
  expect(await eventually(async () => (await sandbox.roles(guild, member)).includes(role), 15_000, 'the verified role')).toBe(true);
});
