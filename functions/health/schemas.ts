import * as z from 'zod/mini';
import { built } from '#shared/built.js';

/** `/livez` and `/readyz`: `data.status` is "ok" (behaviour §2). */
export const statusAnswer = /* @__PURE__ */ built(() => z.object({ status: z.literal('ok') }));
