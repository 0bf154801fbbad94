/** `npx tsx clients/bot/main.ts` (or the container's entry): the reference bot, configured by the environment (config.ts). */
import { startBot } from './bot.js';
import { configFromEnv } from './config.js';

const config = configFromEnv(process.env);
if ('problems' in config) {
  console.error(`Cannot start the bot:\n  ${config.problems.join('\n  ')}`);
  process.exit(1);
}
const bot = await startBot(config);
await bot.ready;
console.log(JSON.stringify({ event: 'bot ready', platform: config.platformApiBaseUrl, service: config.serviceUrl }));

const shutdown = () => {
  bot.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
