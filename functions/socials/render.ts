/**
 * How an announcement looks (behaviour §7): the item's title and link (rss:
 * also its description, cut to 500 characters), `@everyone` first when the
 * entry asks for it, which is then the only mention allowed.
 */
import type { RESTPostAPIChannelMessageJSONBody } from 'discord-api-types/v10';
import type { SourceItem } from './feed/parse.js';
import { fitLimits } from '#shared/templates/limits.js';
import type { Kind } from './kinds.js';

export function announcement(
  kind: Kind,
  item: Pick<SourceItem, 'title' | 'description' | 'link'>,
  mentionEveryone: boolean,
): RESTPostAPIChannelMessageJSONBody {
  const lines: string[] = [];
  if (mentionEveryone) lines.push('@everyone');
  const title = item.title.trim() || '(untitled)';
  lines.push(kind === 'stream' ? `🔴 **${title}**` : `**${title}**`);
  if (kind === 'rss' && item.description) lines.push(item.description.slice(0, 500));
  if (item.link) lines.push(item.link);
  // The feed's text, cut to the platform's limits so the item is still announced.
  return fitLimits({ content: lines.join('\n'), allowed_mentions: { parse: mentionEveryone ? ['everyone' as never] : [] } }, 'cut');
}
