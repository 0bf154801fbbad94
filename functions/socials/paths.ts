import type { Kind } from './kinds.js';

/** The paths the entry handlers answer on, apart from the route table so a handler does not bundle the whole table. */
export const SOCIALS_BASE = '/modules/socials';
export const entriesPath = (kind: Kind) => `${SOCIALS_BASE}/entries/${kind}`;
export const sendPath = (kind: Kind) => `${SOCIALS_BASE}/entries/send/${kind}`;
