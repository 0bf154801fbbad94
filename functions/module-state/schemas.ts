import * as z from 'zod/mini';
import { messageAnswer, meta, recordId, snowflakeOut } from '#shared/http/schemas.js';
import { built } from '#shared/built.js';

/** Home: names the module route. */
export const HomeAnswer = messageAnswer;

/** `GET .../status`: whether the module is on for the guild. */
export const StatusAnswer = /* @__PURE__ */ built(() => z.object({ status: z.boolean() }));

const record = /* @__PURE__ */ built(() => z.catchall(z.object({ id: recordId, guild_id: snowflakeOut }), z.unknown()));

/**
 * What enable and disable answer: the module's snapshot (behaviour §5). Part 1
 * modules give `status` and, where they have settings, `settings`; parts 2
 * and 3 the settings and record lists their documents name (socials groups
 * its entries by kind). The records are those of the module's own routes.
 */
export const SnapshotAnswer = /* @__PURE__ */ built(() =>
  meta(
    z.catchall(
      z.object({
        status: meta(z.optional(z.boolean()), { description: 'Part 1 modules: whether the module is now enabled' }),
        settings: meta(z.optional(z.nullable(record)), { description: "The module's settings record, where it has settings" }),
      }),
      // `<list>_total`: the count of a list that can grow without bound, whose newest 1000 records the snapshot shows (behaviour §15).
      z.union([z.array(record), z.record(z.string(), z.array(record)), z.int()]),
    ),
    { description: "The module's snapshot: its settings and its records, by the keys its document lists" },
  ),
);
