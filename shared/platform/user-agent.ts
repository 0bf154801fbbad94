import project from '../../package.json' with { type: 'json' };

/**
 * How the service names itself to the platform, in the form its API
 * reference requires: `DiscordBot ($url, $versionNumber)`, with the
 * project's URL and version from package.json (bundled at build time, not
 * read from disk when a function runs).
 */
export const USER_AGENT = `DiscordBot (${project.homepage}, ${project.version})`;
