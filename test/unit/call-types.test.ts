/**
 * The test client checks what a test sends against the typed client
 * (clients/typescript/schema.d.ts): `tsc --noEmit` in `npm test` fails on a
 * body a literal route does not take, unless the test says it sends one on
 * purpose (`looseBody`).
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { BodyOf, CallOptions } from '../helpers/local.js';

describe('the test client types bodies by route', () => {
  it('takes a literal route’s body as the typed client declares it', () => {
    expectTypeOf<BodyOf<'POST', '/modules/reactionroles/panels'>>().toHaveProperty('panel_type').toEqualTypeOf<'emoji' | 'button' | 'dropdown'>();
    // A path with IDs in it reaches its route template.
    expectTypeOf<BodyOf<'PUT', `/modules/tags/entries/${string}`>>().toHaveProperty('guild_id').toEqualTypeOf<string>();
  });

  it('refuses a body the route does not take', () => {
    const options: CallOptions<BodyOf<'POST', '/modules/reactionroles/panels'>> = {
      body: {
        guild_id: '1',
        // @ts-expect-error: not a panel type the route takes
        panel_type: 'round',
        limit_roles_to_one: false,
        supports_remove: true,
        remove_roles_from_users_on_entry_delete: false,
        is_register: false,
      },
    };
    expectTypeOf(options).not.toBeAny();
  });

  it('leaves a path built at run time, and looseBody, unchecked', () => {
    expectTypeOf<BodyOf<'POST', string>>().toBeUnknown();
    expectTypeOf<CallOptions['looseBody']>().toBeUnknown();
  });
});
