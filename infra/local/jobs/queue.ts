import { randomUUID } from 'node:crypto';

/**
 * An in-process SQS standard queue with the semantics the consumers rely
 * on: a delay per message (`DelaySeconds`), a visibility timeout after each
 * receive, a receive count, and a redrive policy moving a message to a
 * dead-letter queue when it is received more than `maxReceiveCount` times.
 * Like SQS, a message that is neither deleted nor received again simply
 * becomes visible again; nothing here is persisted (the table is the record
 * of due work).
 */
export interface LocalQueueOptions {
  name: string;
  /** How long a received message stays hidden before it is delivered again. */
  visibilityTimeoutMs: number;
  /** Redrive policy: after this many receives the next receive moves the message to `deadLetters`. */
  maxReceiveCount?: number;
  deadLetters?: LocalQueue;
  now?: () => number;
}

/** A message as the queue keeps it. */
export interface QueuedMessage {
  messageId: string;
  body: string;
  sentAt: number;
  /** Not deliverable before this time (delay, then visibility timeouts). */
  visibleAt: number;
  receiveCount: number;
  firstReceivedAt: number | null;
  /** The handle of the latest receive; a delete with an older one is ignored. */
  receiptHandle: string | null;
}

/** What a receive hands a consumer. */
export interface Delivery {
  messageId: string;
  receiptHandle: string;
  body: string;
  sentAt: number;
  receiveCount: number;
  firstReceivedAt: number;
}

export class LocalQueue {
  readonly name: string;
  private readonly messages = new Map<string, QueuedMessage>();
  private readonly listeners = new Set<() => void>();
  private readonly now: () => number;

  constructor(private readonly options: LocalQueueOptions) {
    this.name = options.name;
    this.now = options.now ?? Date.now;
  }

  /** SendMessage: answers the message ID. */
  send(body: string, delaySeconds = 0): string {
    if (!Number.isInteger(delaySeconds) || delaySeconds < 0 || delaySeconds > 900) {
      throw new Error(`DelaySeconds must be an integer from 0 to 900, not ${delaySeconds}`);
    }
    const now = this.now();
    const message: QueuedMessage = {
      messageId: randomUUID(),
      body,
      sentAt: now,
      visibleAt: now + delaySeconds * 1000,
      receiveCount: 0,
      firstReceivedAt: null,
      receiptHandle: null,
    };
    this.messages.set(message.messageId, message);
    for (const listener of this.listeners) listener();
    return message.messageId;
  }

  /**
   * ReceiveMessage: up to `max` visible messages, oldest first, each hidden
   * for the visibility timeout. A message already received
   * `maxReceiveCount` times goes to the dead-letter queue instead.
   */
  receive(max: number): Delivery[] {
    const now = this.now();
    const out: Delivery[] = [];
    for (const message of this.messages.values()) {
      if (out.length >= max) break;
      if (message.visibleAt > now) continue;
      const limit = this.options.maxReceiveCount;
      if (limit !== undefined && this.options.deadLetters && message.receiveCount >= limit) {
        this.messages.delete(message.messageId);
        this.options.deadLetters.adopt(message);
        continue;
      }
      message.receiveCount += 1;
      message.firstReceivedAt ??= now;
      message.visibleAt = now + this.options.visibilityTimeoutMs;
      message.receiptHandle = randomUUID();
      out.push({
        messageId: message.messageId,
        receiptHandle: message.receiptHandle,
        body: message.body,
        sentAt: message.sentAt,
        receiveCount: message.receiveCount,
        firstReceivedAt: message.firstReceivedAt,
      });
    }
    return out;
  }

  /** DeleteMessage with the handle of the latest receive; answers whether it deleted. */
  delete(receiptHandle: string): boolean {
    for (const message of this.messages.values()) {
      if (message.receiptHandle === receiptHandle) return this.messages.delete(message.messageId);
    }
    return false;
  }

  /** Deletes every message whose body `matches`, as a reader deleting what it received would; answers how many. */
  discard(matches: (body: string) => boolean): number {
    let count = 0;
    for (const message of [...this.messages.values()]) {
      if (matches(message.body) && this.messages.delete(message.messageId)) count++;
    }
    return count;
  }

  /** The earliest time a message becomes deliverable, or null when the queue is empty. */
  nextVisibleAt(): number | null {
    let next: number | null = null;
    for (const message of this.messages.values()) if (next === null || message.visibleAt < next) next = message.visibleAt;
    return next;
  }

  /** Every message, in flight or not (inspection). */
  list(): QueuedMessage[] {
    return [...this.messages.values()].map((m) => ({ ...m }));
  }

  get size(): number {
    return this.messages.size;
  }

  /** Calls `listener` whenever a message is sent; answers a function that stops it. */
  onSend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Takes a message moved here by a redrive policy, as it was. */
  private adopt(message: QueuedMessage): void {
    this.messages.set(message.messageId, { ...message, visibleAt: this.now(), receiptHandle: null });
  }
}
