/**
 * The bot's configuration, from the environment: the platform's REST base
 * (the gateway's address comes from its GET /gateway/bot), the bot token,
 * the service's URL and the service token. Nothing else.
 */
import type { BotConfig } from './bot.js';

/** The variables, with what each holds (the README's list and the error a missing one gets). */
export const ENV = {
  PLATFORM_API_BASE_URL: 'the platform REST base ending in /api/v10 (default https://discord.com/api/v10)',
  PLATFORM_BOT_TOKEN: 'the bot token (required)',
  SERVICE_URL:
    "the service base URL, e.g. http://127.0.0.1:3000 or, deployed, the stack's BotApiUrl output (the bot's door, an HTTP API: https://<api id>.execute-api.<region>.amazonaws.com/v1) (required)",
  SERVICE_TOKEN: 'the service token the service was given (required)',
} as const;

export const DEFAULT_PLATFORM_API_BASE_URL = 'https://discord.com/api/v10';

/** The configuration, or the list of what is missing or wrong. */
export function configFromEnv(env: NodeJS.ProcessEnv): BotConfig | { problems: string[] } {
  const problems: string[] = [];
  const required = (name: 'PLATFORM_BOT_TOKEN' | 'SERVICE_URL' | 'SERVICE_TOKEN') => {
    const value = env[name]?.trim();
    if (!value) problems.push(`${name} is not set: ${ENV[name]}.`);
    return value ?? '';
  };
  const url = (name: 'PLATFORM_API_BASE_URL' | 'SERVICE_URL', value: string) => {
    if (value && !URL.canParse(value)) problems.push(`${name} '${value}' is not a URL: ${ENV[name]}.`);
    return value;
  };
  const config: BotConfig = {
    platformApiBaseUrl: url('PLATFORM_API_BASE_URL', env.PLATFORM_API_BASE_URL?.trim() || DEFAULT_PLATFORM_API_BASE_URL),
    botToken: required('PLATFORM_BOT_TOKEN'),
    serviceUrl: url('SERVICE_URL', required('SERVICE_URL')),
    serviceToken: required('SERVICE_TOKEN'),
  };
  return problems.length > 0 ? { problems } : config;
}
