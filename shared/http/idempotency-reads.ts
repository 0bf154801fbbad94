/**
 * What the endpoint factory uses of `Idempotency-Key` in a function that
 * answers only reads (GET): nothing, since a read takes no key (behaviour
 * §16). The build puts this in place of shared/http/idempotency.ts for
 * those functions (`keylessReads` in infra/build-plugins.ts), so they carry
 * neither the key's store nor a table client they never use.
 */
import type * as Keyed from './idempotency.js';

export const idempotencyKeyOf: typeof Keyed.idempotencyKeyOf = () => null;
export const keepAnswers: typeof Keyed.keepAnswers = (handler) => handler;
export const scopeOf: typeof Keyed.scopeOf = () => 'none';
export const fingerprintOf: typeof Keyed.fingerprintOf = () => '';
export const nonceSeedOf: typeof Keyed.nonceSeedOf = () => '';
export const takeKey: typeof Keyed.takeKey = async () => {
  throw new Error('A function answering reads takes no Idempotency-Key');
};
