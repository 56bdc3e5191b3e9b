import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { EventBus } from '../../ports/event-bus.js';
import { makeInternalEvent, type DmsEvent, type InternalEvent } from '../../domain/events.js';
import { deliver } from '../memory/memory-event-bus.js';
import { decodeWireMessage, encodeWireMessage, maxNotifyPayloadBytes, type WireMessage } from './pg-event-wire.js';

/*
 * Why LISTEN/NOTIFY rather than an outbox table: a NOTIFY reaches every listening replica in
 * a few milliseconds (the budget is 100 ms for a job long-poll, 2 s for a revoked key), with
 * no table that grows and must be pruned and no polling. Delivery is at most once, which is
 * enough for what crosses this bus: configuration_changed, credentials_changed and job_changed
 * only tell a replica to re-read storage, which stays the source of truth, and traps are sent
 * by the replica where the event happened, never from a remote copy.
 */

export interface PgEventBusOptions {
  /** The dedicated listening connection: a LISTEN needs a session of its own, not a pooled one. */
  connection: string | pg.ClientConfig;
  /** The NOTIFY channel shared by the replicas (dms_events). */
  channel?: string;
  /** Tags what this process publishes, so that it skips its own notifications (random). */
  replicaId?: string;
  /** First delay before reconnecting after a drop, doubled per failed attempt up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
  /** A dropped connection, a failed reconnect or send, a listener that threw. */
  onError?: (error: unknown) => void;
  /** Each time the bus listens, the first time and after every reconnect (logs, tests). */
  onListening?: () => void;
}

/** The application_name of a bus's listening session (pg_stat_activity shows it). */
export function listenerApplicationName(replicaId: string): string {
  return `dms-events-${replicaId}`.slice(0, 63);
}

/** Sends queued while reconnecting are kept up to this many; older ones are dropped. */
const maxPendingSends = 1_000;

/** Payloads sent in one statement at most (each under 8000 bytes). */
const maxNotifyBatch = 100;

/** Every waiting payload in one statement, in queue order (unnest keeps the array's). */
const notifyBatchStatement = 'select pg_notify($1, payload) from unnest($2::text[]) as payload';

/**
 * The EventBus port over PostgreSQL LISTEN/NOTIFY: publish delivers to local subscribers at
 * once and notifies the other replicas, whose events arrive marked `origin: 'remote'`.
 */
export class PgEventBus implements EventBus {
  readonly replicaId: string;
  readonly #options: PgEventBusOptions & { channel: string; retryMs: number; maxRetryMs: number };
  readonly #listeners = new Set<(event: DmsEvent) => void>();
  readonly #signalListeners = new Set<(event: InternalEvent) => void>();
  /** Payloads not sent yet: waiting for the send under way, or for a reconnect. */
  readonly #queue: string[] = [];
  #flushing = false;
  #client: pg.Client | undefined;
  #attempt = 0;
  #retry: NodeJS.Timeout | undefined;
  #closed = false;

  private constructor(options: PgEventBusOptions) {
    this.#options = { channel: 'dms_events', retryMs: 100, maxRetryMs: 5_000, ...options };
    this.replicaId = options.replicaId ?? randomUUID();
  }

  /** Resolves once listening; rejects when PostgreSQL cannot be reached the first time. */
  static async open(options: PgEventBusOptions): Promise<PgEventBus> {
    const bus = new PgEventBus(options);
    await bus.#listen();
    return bus;
  }

  publish(event: DmsEvent): void {
    deliver(this.#listeners, event, this.#report);
    this.#send({ from: this.replicaId, kind: 'event', event });
  }

  subscribe(listener: (event: DmsEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  signal(event: InternalEvent): void {
    deliver(this.#signalListeners, event, this.#report);
    this.#send({ from: this.replicaId, kind: 'signal', event });
  }

  subscribeSignals(listener: (event: InternalEvent) => void): () => void {
    this.#signalListeners.add(listener);
    return () => this.#signalListeners.delete(listener);
  }

  /** Stops listening and reconnecting; local delivery goes on, nothing is sent any more. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    this.#queue.length = 0;
    await client?.end().catch(() => undefined);
  }

  readonly #report = (error: unknown): void => {
    try {
      this.#options.onError?.(error);
    } catch {
      // the error sink itself failed: nothing sensible is left to tell
    }
  };

  #send(message: WireMessage): void {
    if (this.#closed) return;
    const payload = encodeWireMessage(message);
    if (Buffer.byteLength(payload) > maxNotifyPayloadBytes) {
      this.#report(new Error(`event ${message.event.name} too large for NOTIFY (${Buffer.byteLength(payload)} bytes): not sent to other replicas`));
      return;
    }
    if (this.#queue.length >= maxPendingSends) {
      // Connected: past that many waiting, a signal is dropped (storage stays the truth).
      // Reconnecting: the oldest goes, the newest says more about the present.
      if (this.#client) {
        this.#report(new Error(`more than ${maxPendingSends} NOTIFYs waiting: event ${message.event.name} not sent to other replicas`));
        return;
      }
      this.#queue.shift();
    }
    this.#queue.push(payload);
    this.#flush();
  }

  /**
   * Sends what is queued, one statement at a time on the listening client (pg deprecates
   * concurrent client.query calls): each statement takes every payload waiting, up to
   * maxNotifyBatch, so a burst of events (a job's claim, progress and finish, a credentials
   * change beside them) costs one round trip and one transaction, not one each. A prepared
   * statement, parsed once per session. PostgreSQL folds identical payloads of one transaction
   * into one notification, which is harmless: each only says "read it again".
   */
  #flush(): void {
    if (this.#flushing || !this.#client) return;
    this.#flushing = true;
    void this.#drain().finally(() => {
      this.#flushing = false;
      // A send that arrived while the last statement was finishing.
      if (this.#queue.length > 0) this.#flush();
    });
  }

  async #drain(): Promise<void> {
    for (let client = this.#client; client && this.#queue.length > 0; client = this.#client) {
      const batch = this.#queue.splice(0, maxNotifyBatch);
      try {
        await client.query({ name: 'dms_notify_batch', text: notifyBatchStatement, values: [this.#options.channel, batch] });
      } catch (error) {
        this.#report(error);
      }
    }
  }

  #receive(payload: string): void {
    const message = decodeWireMessage(payload);
    if (!message || message.from === this.replicaId) return;
    if (message.kind === 'event') deliver(this.#listeners, message.event, this.#report);
    else deliver(this.#signalListeners, message.event, this.#report);
  }

  async #listen(): Promise<void> {
    const { connection, channel } = this.#options;
    const config = typeof connection === 'string' ? { connectionString: connection } : connection;
    const client = new pg.Client({ ...config, application_name: listenerApplicationName(this.replicaId) });
    // The session's backend: PostgreSQL hands a session its own NOTIFYs back.
    let ownBackendPid: number | undefined;
    client.on('error', (error) => this.#dropped(client, error));
    client.on('end', () => this.#dropped(client));
    client.on('notification', (notification) => {
      // This session's own NOTIFY, handed back: skipped before it is parsed.
      if (notification.processId === ownBackendPid) return;
      if (notification.channel === channel && notification.payload) this.#receive(notification.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${client.escapeIdentifier(channel)}`);
      ownBackendPid = ((await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0] as { pid: number }).pid;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#attempt = 0;
    this.#flush();
    this.#options.onListening?.();
  }

  #dropped(client: pg.Client, error?: unknown): void {
    if (client !== this.#client) return;
    this.#client = undefined;
    this.#report(error ?? new Error('event bus connection ended'));
    void client.end().catch(() => undefined);
    this.#reconnect();
  }

  #reconnect(): void {
    if (this.#closed) return;
    const delay = Math.min(this.#options.maxRetryMs, this.#options.retryMs * 2 ** this.#attempt);
    this.#attempt += 1;
    this.#retry = setTimeout(() => {
      this.#listen().then(
        // Whatever the others published while this replica was away is lost: forget what it
        // remembers about credentials rather than trust it. Long-polls re-read storage anyway.
        () => {
          if (this.#client) this.#deliverForgetCredentials();
        },
        (error: unknown) => {
          this.#report(error);
          this.#reconnect();
        },
      );
    }, delay);
    this.#retry.unref();
  }

  #deliverForgetCredentials(): void {
    const event = {
      ...makeInternalEvent('credentials_changed', 'the event bus reconnected: events may have been missed', new Date()),
      origin: 'remote' as const,
    };
    deliver(this.#signalListeners, event, this.#report);
  }
}
