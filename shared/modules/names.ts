/** The nine modules and their path segments (behaviour §5). */
export const MODULES = ['reactionroles', 'polls', 'socials', 'serverstats', 'welcoming', 'invite-tracker', 'giveaways', 'verifier', 'tags'] as const;

export type ModuleName = (typeof MODULES)[number];

export function isModuleName(value: string): value is ModuleName {
  return (MODULES as readonly string[]).includes(value);
}

/** The module a route path belongs to: `/modules/<module>/...`. */
export function moduleOfPath(path: string): ModuleName | null {
  const match = /^(?:\/v1)?\/modules\/([^/]+)/.exec(path);
  return match && isModuleName(match[1]!) ? match[1] : null;
}
