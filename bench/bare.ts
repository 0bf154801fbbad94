/** A handler that does nothing: what Node alone costs, for the bench's note. */
export const handler = async () => ({ statusCode: 200, body: '{}' });
