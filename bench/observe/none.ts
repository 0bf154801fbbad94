/** The baseline: a handler writing nothing. */
export const handler = async () => undefined;
