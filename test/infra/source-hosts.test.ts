/** SOURCE_ALLOWED_HOSTS as an operator setting (infra/config.ts): read from CDK context, checked, and refused when an entry is not host:port. */
import type { Node } from 'constructs';
import { describe, expect, it } from 'vitest';
import { settingsFromContext } from '#infra/config.js';

const nodeWith = (context: Record<string, unknown>) => ({ tryGetContext: (key: string) => context[key] }) as unknown as Node;

describe('sourceAllowedHosts', () => {
  it('reads a comma-separated string or a JSON array of host:port, spelled as URLs spell hosts', () => {
    expect(settingsFromContext(nodeWith({ sourceAllowedHosts: 'Feeds.Internal:8080, [::1]:80' })).sourceAllowedHosts).toEqual([
      'feeds.internal:8080',
      '[::1]:80',
    ]);
    expect(settingsFromContext(nodeWith({ sourceAllowedHosts: ['10.1.2.3:443'] })).sourceAllowedHosts).toEqual(['10.1.2.3:443']);
    expect(settingsFromContext(nodeWith({})).sourceAllowedHosts).toBeUndefined();
  });

  it('refuses an entry that is not host:port, naming it', () => {
    expect(() => settingsFromContext(nodeWith({ sourceAllowedHosts: 'feeds.internal' }))).toThrow(/SOURCE_ALLOWED_HOSTS: 'feeds.internal' is not host:port/);
    expect(() => settingsFromContext(nodeWith({ sourceAllowedHosts: 'http://feeds.internal:80' }))).toThrow(/is not host:port/);
  });
});
