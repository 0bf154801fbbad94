import { parseGuildKeyRate } from '../config.js';
import { startLocal } from './start.js';
import { parseEmbeddedDynamo } from './table.js';

/** `npm start`: local mode configured by the environment (behaviour §10). */
const env = process.env;
const port = env.PORT ? Number(env.PORT) : 3000;
const sandboxPort = env.SANDBOX_PORT ? Number(env.SANDBOX_PORT) : port + 1;
// Read before the start, which sets it for the service from the sandbox's.
const givenClientSecret = env.PLATFORM_CLIENT_SECRET || undefined;
const [guildKeyRate, embeddedDynamo] = (() => {
  try {
    return [parseGuildKeyRate(env.GUILD_KEY_RATE), parseEmbeddedDynamo(env.LOCAL_DYNAMODB)] as const;
  } catch (error) {
    console.error(`Cannot start: ${(error as Error).message}.`);
    process.exit(1);
  }
})();
const service = await (async () => {
  try {
    return await startLocal({
      port,
      sandboxPort,
      host: env.HOST ?? '127.0.0.1',
      dataDir: env.DATA_DIR || '.data',
      serviceToken: env.SERVICE_TOKEN || undefined,
      cursorSecret: env.CURSOR_SECRET || undefined,
      platformApiBaseUrl: env.PLATFORM_API_BASE_URL || undefined,
      platformBotToken: env.PLATFORM_BOT_TOKEN || undefined,
      platformClientId: env.PLATFORM_CLIENT_ID || undefined,
      platformClientSecret: givenClientSecret,
      dynamodbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
      embeddedDynamo,
      tableName: env.TABLE_NAME || undefined,
      guildKeyRate,
      // The reference bot runs beside the sandbox unless LOCAL_BOT=false; against a configured platform only with LOCAL_BOT=true.
      bot: env.LOCAL_BOT ? env.LOCAL_BOT !== 'false' : !env.PLATFORM_API_BASE_URL,
      botLog: (line) => console.log(`bot: ${line}`),
    });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { port?: number };
    if (failure.code === 'EADDRINUSE') {
      const which = failure.port === sandboxPort ? `SANDBOX_PORT (the sandbox platform, ${sandboxPort})` : `PORT (${port})`;
      console.error(`Cannot start: port ${failure.port ?? port} is in use. Set ${which} to a free port, e.g. PORT=4000 npm start.`);
      process.exit(1);
    }
    throw error;
  }
})();

console.log(`Guild Module Management Service, local mode
  API:            ${service.url}  (also under ${service.url}/v1)
  API docs:       ${service.url}/docs
  Dashboard:      ${service.url}/dashboard  (sign in as a member of a sandbox guild who has Manage Server)
  Service token:  ${service.serviceToken}
  Data directory: ${service.dataDir}
  Platform:       ${service.sandboxUrl ? `sandbox at ${service.sandboxUrl} (look at it: ${service.sandboxUrl.replace(/\/api\/v10$/, '/')})` : env.PLATFORM_API_BASE_URL}
${
  service.sandboxGatewayUrl
    ? `  Gateway:        ${service.sandboxGatewayUrl}
  Bot token:      ${service.platformBotToken}
  OAuth2 client:  ${service.platformClientId} (its secret ${givenClientSecret ? 'is PLATFORM_CLIENT_SECRET' : `in ${service.dataDir}/sandbox-client-secret`}; sign-in returns to ${service.oauth2RedirectUris[0]})
`
    : ''
}  Reference bot:  ${service.bot ? 'running, connected to the platform and to the service (LOCAL_BOT=false to leave it out); its lines start with "bot:"' : 'not running (LOCAL_BOT=true runs it)'}

Try: curl -H "Authorization: Bearer ${service.serviceToken}" "${service.url}/modules/polls/status?guild_id=1234567890123456789"`);

const shutdown = () => {
  service.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
