/**
 * The sandbox's gateway (API v10, JSON encoding), on the sandbox's own HTTP
 * server: `GET /api/v10/gateway` and `/gateway/bot` answer its URL; a
 * WebSocket at `/gateway` says HELLO, takes IDENTIFY (READY, then a
 * GUILD_CREATE per guild), HEARTBEAT (HEARTBEAT_ACK) and RESUME (the missed
 * dispatches replayed, or INVALID_SESSION with `d` false), and closes with
 * the platform's codes (4004 wrong token, 4014 privileged intents the
 * application lacks). Every event of the sandbox (events.ts) goes to every
 * session whose intents cover it, with `s` increasing per session; several
 * sessions on one token each get every dispatch.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  GatewayCloseCodes,
  GatewayDispatchEvents,
  type GatewayDispatchPayload,
  GatewayIntentBits,
  GatewayOpcodes,
  type GatewayReadyDispatchData,
  type GatewayReceivePayload,
  type GatewayResumeData,
  type GatewayIdentifyData,
  type RESTGetAPIGatewayBotResult,
  type ApplicationFlags,
} from 'discord-api-types/v10';
import { type WebSocket, WebSocketServer } from 'ws';
import type { SandboxEvent } from './state.js';
import { guildCreateData, userView } from './routes/members.js';
import { BOT_USER, type SandboxState } from './state.js';

/** The privileged intents: an application has them only when granted (`PUT /_sandbox/application/intents`). */
export const PRIVILEGED_INTENTS = GatewayIntentBits.GuildMembers | GatewayIntentBits.GuildPresences | GatewayIntentBits.MessageContent;
/** Every intent bit the platform defines; any other bit is 4013 Invalid intents. */
const KNOWN_INTENTS = Object.values(GatewayIntentBits)
  .filter((bit): bit is number => typeof bit === 'number')
  .reduce((all, bit) => all | bit, 0);
/** Dispatches a session keeps for RESUME; older ones are gone (INVALID_SESSION). */
const RESUME_BUFFER = 1000;
/** Disconnected sessions kept resumable; past this the oldest is forgotten. */
const DETACHED_SESSIONS = 100;
/** The platform's payload limit from clients. */
const MAX_CLIENT_PAYLOAD = 4096;

const I = GatewayIntentBits;
const E = GatewayDispatchEvents;
/** The intent that covers each event, in a guild and in DMs (the platform's table); events not here are always sent. */
const EVENT_INTENTS: Partial<Record<GatewayDispatchEvents, { guild: number; dm?: number }>> = {
  [E.GuildCreate]: { guild: I.Guilds },
  [E.GuildUpdate]: { guild: I.Guilds },
  [E.GuildDelete]: { guild: I.Guilds },
  [E.ChannelCreate]: { guild: I.Guilds },
  [E.ChannelUpdate]: { guild: I.Guilds },
  [E.ChannelDelete]: { guild: I.Guilds },
  [E.GuildMemberAdd]: { guild: I.GuildMembers },
  [E.GuildMemberUpdate]: { guild: I.GuildMembers },
  [E.GuildMemberRemove]: { guild: I.GuildMembers },
  [E.InviteCreate]: { guild: I.GuildInvites },
  [E.InviteDelete]: { guild: I.GuildInvites },
  [E.VoiceStateUpdate]: { guild: I.GuildVoiceStates },
  [E.PresenceUpdate]: { guild: I.GuildPresences },
  [E.MessageCreate]: { guild: I.GuildMessages, dm: I.DirectMessages },
  [E.MessageUpdate]: { guild: I.GuildMessages, dm: I.DirectMessages },
  [E.MessageDelete]: { guild: I.GuildMessages, dm: I.DirectMessages },
  [E.MessageReactionAdd]: { guild: I.GuildMessageReactions, dm: I.DirectMessageReactions },
  [E.MessageReactionRemove]: { guild: I.GuildMessageReactions, dm: I.DirectMessageReactions },
  [E.MessageReactionRemoveAll]: { guild: I.GuildMessageReactions, dm: I.DirectMessageReactions },
  [E.MessageReactionRemoveEmoji]: { guild: I.GuildMessageReactions, dm: I.DirectMessageReactions },
  [E.MessagePollVoteAdd]: { guild: I.GuildMessagePolls, dm: I.DirectMessagePolls },
  [E.MessagePollVoteRemove]: { guild: I.GuildMessagePolls, dm: I.DirectMessagePolls },
};

interface Session {
  id: string;
  intents: number;
  /** The last `s` sent. */
  seq: number;
  /** The latest dispatches, for RESUME. */
  sent: GatewayDispatchPayload[];
  /** Guilds this session has had a GUILD_CREATE for. */
  guilds: Set<string>;
  socket: WebSocket | null;
}

export interface GatewayOptions {
  /** The only token IDENTIFY and RESUME accept. */
  token: string;
  /** HELLO's `heartbeat_interval` (the platform's is 41250). */
  heartbeatIntervalMs: number;
}

export interface Gateway {
  /** The bot token the gateway accepts. */
  token: string;
  /** Answers `GET /gateway` and `GET /gateway/bot` (null for any other path). */
  info(path: string, wsUrl: string): RESTGetAPIGatewayBotResult | { url: string } | null;
  /** Takes an HTTP upgrade of the sandbox's server; refuses any path but `/gateway`. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, wsUrl: string): void;
  close(): void;
}

/** The guild IDs the sandbox knows: named guilds, and guilds its channels and members belong to. */
export function guildIds(state: SandboxState): string[] {
  const ids = new Set(state.guilds.keys());
  for (const channel of state.channels.values()) if (channel.guild_id && !state.deletedChannels.has(channel.id)) ids.add(channel.guild_id);
  for (const id of state.members.keys()) ids.add(id);
  return [...ids];
}

/** Whether a session with these intents hears the event (`guild` false: in DMs). */
function covers(intents: number, event: SandboxEvent, inGuild: boolean): boolean {
  const needed = EVENT_INTENTS[event.t];
  if (!needed) return true;
  const bit = inGuild ? needed.guild : needed.dm;
  return bit !== undefined && (intents & bit) !== 0;
}

/** The guild an event happened in, if any. */
function guildOfEvent(event: SandboxEvent): string | null {
  if (event.t === E.GuildCreate) return null;
  const d = event.d as { guild_id?: string | null };
  return typeof d.guild_id === 'string' ? d.guild_id : null;
}

/** A message without MESSAGE_CONTENT: members' content, embeds, components and polls are not sent (the bot's own are). */
function withoutContent(event: SandboxEvent): SandboxEvent {
  if (event.t !== E.MessageCreate && event.t !== E.MessageUpdate) return event;
  const d = event.d as { author?: { id: string }; mentions?: { id: string }[] };
  if (d.author?.id === BOT_USER.id || d.mentions?.some((u) => u.id === BOT_USER.id)) return event;
  return { ...event, d: { ...event.d, content: '', embeds: [], attachments: [], components: [], poll: undefined } } as SandboxEvent;
}

/** Starts the gateway of a sandbox state; it listens to the state's events until closed. */
export function createGateway(state: SandboxState, options: GatewayOptions): Gateway {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_PAYLOAD });
  const sessions = new Map<string, Session>();
  let identifies = 0;

  const sendRaw = (socket: WebSocket, payload: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(payload));
  };

  /** Numbers a dispatch for the session, keeps it for RESUME and sends it when connected. */
  const deliver = (session: Session, event: SandboxEvent) => {
    const payload = { op: GatewayOpcodes.Dispatch, s: ++session.seq, ...event } as GatewayDispatchPayload;
    session.sent.push(payload);
    if (session.sent.length > RESUME_BUFFER) session.sent.shift();
    if (session.socket) sendRaw(session.socket, payload);
  };

  const announce = (session: Session, guildId: string) => {
    session.guilds.add(guildId);
    if (session.intents & I.Guilds) deliver(session, { t: E.GuildCreate, d: guildCreateData(state, guildId, session.intents) });
  };

  const listener = (event: SandboxEvent) => {
    const guildId = guildOfEvent(event);
    for (const session of sessions.values()) {
      // A guild the session has not heard of yet appears first (a guild added after IDENTIFY).
      if (guildId && !session.guilds.has(guildId)) announce(session, guildId);
      if (event.t === E.GuildCreate) {
        if (!session.guilds.has(event.d.id)) announce(session, event.d.id);
        continue;
      }
      const isMessage = event.t === E.MessageCreate || event.t === E.MessageUpdate;
      if (!covers(session.intents, event, guildId !== null)) continue;
      deliver(session, isMessage && !(session.intents & I.MessageContent) && guildId ? withoutContent(event) : event);
    }
  };
  state.listeners.add(listener);

  /** Forgets the oldest disconnected sessions beyond the bound. */
  const trimDetached = () => {
    const detached = [...sessions.values()].filter((s) => !s.socket);
    for (const session of detached.slice(0, Math.max(0, detached.length - DETACHED_SESSIONS))) sessions.delete(session.id);
  };

  const identify = (socket: WebSocket, d: GatewayIdentifyData, wsUrl: string): Session | null => {
    if (d.token !== options.token && d.token !== `Bot ${options.token}`) {
      socket.close(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
      return null;
    }
    const intents = d.intents;
    if (!Number.isInteger(intents) || intents < 0 || (intents & ~KNOWN_INTENTS) !== 0) {
      socket.close(GatewayCloseCodes.InvalidIntents, 'Invalid intent(s).');
      return null;
    }
    if ((intents & PRIVILEGED_INTENTS & ~state.privilegedIntents) !== 0) {
      socket.close(GatewayCloseCodes.DisallowedIntents, 'Disallowed intent(s).');
      return null;
    }
    identifies += 1;
    const session: Session = { id: randomBytes(16).toString('hex'), intents, seq: 0, sent: [], guilds: new Set(), socket };
    const guilds = guildIds(state);
    const ready: GatewayReadyDispatchData = {
      v: 10,
      user: userView(state, BOT_USER.id),
      guilds: guilds.map((id) => ({ id, unavailable: true })),
      session_id: session.id,
      resume_gateway_url: wsUrl,
      shard: [0, 1],
      application: { id: BOT_USER.id, flags: 0 as ApplicationFlags, flags_new: '0' },
    };
    sessions.set(session.id, session);
    deliver(session, { t: E.Ready, d: ready });
    for (const id of guilds) announce(session, id);
    return session;
  };

  const resume = (socket: WebSocket, d: GatewayResumeData): Session | null => {
    if (d.token !== options.token && d.token !== `Bot ${options.token}`) {
      socket.close(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
      return null;
    }
    const session = sessions.get(d.session_id);
    const oldest = session?.sent[0]?.s ?? (session ? session.seq + 1 : 0);
    // Resumable: the session exists and still holds every dispatch after `seq`.
    if (!session || !Number.isInteger(d.seq) || d.seq > session.seq || d.seq + 1 < oldest) {
      sendRaw(socket, { op: GatewayOpcodes.InvalidSession, d: false, s: null, t: null });
      return null;
    }
    // The new connection takes the session over; an old one still open (its close not yet seen) is dropped.
    const old = session.socket;
    session.socket = socket;
    old?.terminate();
    for (const payload of session.sent) if (payload.s > d.seq) sendRaw(socket, payload);
    deliver(session, { t: E.Resumed, d: undefined });
    return session;
  };

  const serve = (socket: WebSocket, wsUrl: string) => {
    let session: Session | null = null;
    sendRaw(socket, { op: GatewayOpcodes.Hello, d: { heartbeat_interval: options.heartbeatIntervalMs }, s: null, t: null });
    socket.on('message', (data, isBinary) => {
      let payload: GatewayReceivePayload | { op?: unknown; d?: unknown };
      try {
        if (isBinary) throw new Error('binary frame');
        payload = JSON.parse(data.toString()) as typeof payload;
        if (!payload || typeof payload !== 'object') throw new Error('not an object');
      } catch {
        socket.close(GatewayCloseCodes.DecodeError, 'Error while decoding payload.');
        return;
      }
      switch (payload.op) {
        case GatewayOpcodes.Heartbeat:
          sendRaw(socket, { op: GatewayOpcodes.HeartbeatAck, d: null, s: null, t: null });
          return;
        case GatewayOpcodes.Identify:
        case GatewayOpcodes.Resume: {
          if (session) {
            socket.close(GatewayCloseCodes.AlreadyAuthenticated, 'Already authenticated.');
            return;
          }
          const d = payload.d;
          if (!d || typeof d !== 'object') {
            socket.close(GatewayCloseCodes.DecodeError, 'Error while decoding payload.');
            return;
          }
          session = payload.op === GatewayOpcodes.Identify ? identify(socket, d as GatewayIdentifyData, wsUrl) : resume(socket, d as GatewayResumeData);
          return;
        }
        case GatewayOpcodes.PresenceUpdate:
        case GatewayOpcodes.VoiceStateUpdate:
        case GatewayOpcodes.RequestGuildMembers:
        case GatewayOpcodes.RequestSoundboardSounds:
          // Accepted and not acted on: the sandbox keeps no bot presence or voice.
          if (!session) socket.close(GatewayCloseCodes.NotAuthenticated, 'Not authenticated.');
          return;
        default:
          socket.close(GatewayCloseCodes.UnknownOpcode, 'Unknown opcode.');
      }
    });
    socket.on('close', (code) => {
      if (!session || session.socket !== socket) return;
      session.socket = null;
      // A client that closes normally ends its session, as on the platform; otherwise it may resume.
      if (code === 1000 || code === 1001) sessions.delete(session.id);
      trimDetached();
    });
    socket.on('error', () => socket.terminate());
  };

  return {
    token: options.token,
    info(path, wsUrl) {
      if (path === '/gateway') return { url: wsUrl };
      if (path !== '/gateway/bot') return null;
      return {
        url: wsUrl,
        shards: 1,
        session_start_limit: { total: 1000, remaining: Math.max(0, 1000 - identifies), reset_after: 86_400_000, max_concurrency: 1 },
      };
    },
    upgrade(req, socket, head, wsUrl) {
      const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
      if (url.pathname !== '/gateway') {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const version = url.searchParams.get('v');
        const encoding = url.searchParams.get('encoding');
        if (version !== null && version !== '10') return ws.close(GatewayCloseCodes.InvalidAPIVersion, 'Invalid API version.');
        if ((encoding !== null && encoding !== 'json') || url.searchParams.has('compress')) {
          return ws.close(GatewayCloseCodes.DecodeError, 'Only JSON without compression is spoken here.');
        }
        serve(ws, wsUrl);
      });
    },
    close() {
      state.listeners.delete(listener);
      for (const client of wss.clients) client.terminate();
      wss.close();
      sessions.clear();
    },
  };
}
