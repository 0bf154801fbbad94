import * as z from 'zod/mini';

/** `/livez` and `/readyz`: `data.status` is "ok" (behaviour §2). */
export const statusAnswer = z.object({ status: z.literal('ok') });
