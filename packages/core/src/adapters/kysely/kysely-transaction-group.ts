import type { ControlledTransaction, Kysely, Transaction } from 'kysely';
import type { Database } from './kysely-schema.js';

/** A caller's work waiting for a group, and how to answer it. */
interface Member {
  work: (trx: Transaction<Database>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** What a member's work came to inside the group, told to its caller once the group has ended. */
type Outcome = { member: Member; done: true; value: unknown } | { member: Member; done: false; error: unknown };

/**
 * Every member's savepoint has this one name: members run one after another, each savepoint
 * released or rolled back before the next is made, and one SQL text a statement keeps the
 * statement cache (sqlite-statement-cache.ts) to three entries.
 */
const memberSavepoint = 'dms_group_member';

/** Members a group takes at most: a bound on how long one group holds the connection. */
export const maxGroupMembers = 64;

/**
 * Group commit (decision 191): the transactions that are ready in the same turn of the event
 * loop share one physical transaction and one COMMIT, so one fsync of the -wal instead of one
 * each (SQLite with `synchronous=FULL` runs that fsync on the loop). Each member runs in a
 * SAVEPOINT of its own: a member whose work throws is rolled back to it and told its own error,
 * the others go on. Every caller is answered only after the group's COMMIT (or its end without
 * one): nobody is told "done" before the fsync. When the COMMIT or a savepoint statement fails,
 * or SQLite ends the transaction itself (SQLITE_FULL, IOERR, …), nothing of the group is kept and
 * every member whose work had succeeded is told that error; members not yet taken wait for the
 * next group, untouched.
 */
export class TransactionGroup {
  readonly #db: Kysely<Database>;
  readonly #maxMembers: number;
  readonly #queue: Member[] = [];
  /** The flush scheduled or running, if any: it takes the queue, group after group. */
  #flushing: Promise<void> | undefined;
  #closed = false;

  constructor(db: Kysely<Database>, maxMembers = maxGroupMembers) {
    this.#db = db;
    this.#maxMembers = maxMembers;
  }

  /** Runs `work` as one member of the next group; settles once that group has ended. */
  run<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    // Closed: as an ungrouped transaction, which answers as the storage did before (its driver destroyed).
    if (this.#closed) return this.#db.transaction().execute(work);
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  /** Takes no new member and waits until every queued one has been answered. */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#flushing) await this.#flushing;
  }

  /** The next turn, not this one: every transaction that becomes ready in this turn joins. */
  #schedule(): void {
    if (this.#flushing) return;
    this.#flushing = new Promise<void>((flushed) =>
      setImmediate(() => {
        void this.#runGroup().finally(() => {
          this.#flushing = undefined;
          flushed();
          if (this.#queue.length > 0) this.#schedule();
        });
      }),
    );
  }

  /** One physical transaction over as many queued members as it may take; never throws. */
  async #runGroup(): Promise<void> {
    let trx: ControlledTransaction<Database>;
    try {
      trx = await this.#db.startTransaction().execute();
    } catch (error) {
      // BEGIN failed (a lock held elsewhere past its budget, the file lost): every member waiting
      // for it gets that error, as each would have on its own BEGIN.
      for (const member of this.#queue.splice(0, this.#maxMembers)) member.reject(error);
      return;
    }
    const outcomes: Outcome[] = [];
    let lost: { error: unknown } | undefined;
    // Members queued while the group runs (a member's work waiting on I/O) join it too.
    while (outcomes.length < this.#maxMembers && lost === undefined) {
      const member = this.#queue.shift();
      if (!member) break;
      const ran = await this.#runMember(trx, member);
      outcomes.push(ran.outcome);
      lost = ran.lost;
    }
    if (lost === undefined && outcomes.some((outcome) => outcome.done)) {
      try {
        await trx.commit().execute();
      } catch (error) {
        lost = { error };
      }
    }
    if (!trx.isCommitted) {
      // Nothing to keep, or nothing kept: the connection back. A failed ROLLBACK is no news here
      // (SQLite may have ended the transaction already); Kysely releases the connection anyway.
      try {
        await trx.rollback().execute();
      } catch {}
    }
    for (const outcome of outcomes) {
      if (!outcome.done) outcome.member.reject(outcome.error);
      else if (lost) outcome.member.reject(lost.error);
      else outcome.member.resolve(outcome.value);
    }
  }

  /**
   * One member in a savepoint of its own. `lost`: the physical transaction can no longer be
   * committed (a savepoint statement failed, or SQLite rolled the whole transaction back on the
   * member's error), with the error every member whose work succeeded is told.
   */
  async #runMember(trx: ControlledTransaction<Database>, member: Member): Promise<{ outcome: Outcome; lost?: { error: unknown } }> {
    const name = memberSavepoint;
    let point: ControlledTransaction<Database, [string]>;
    try {
      point = await trx.savepoint(name).execute();
    } catch (error) {
      return { outcome: { member, done: false, error }, lost: { error } };
    }
    let outcome: Outcome;
    try {
      outcome = { member, done: true, value: await member.work(trx) };
    } catch (error) {
      outcome = { member, done: false, error };
    }
    if (outcome.done) {
      try {
        await point.releaseSavepoint(name).execute();
      } catch (error) {
        return { outcome, lost: { error } };
      }
      return { outcome };
    }
    try {
      await point.rollbackToSavepoint(name).execute();
      await point.releaseSavepoint(name).execute();
    } catch {
      // SQLite rolled the whole transaction back on this error (SQLITE_FULL, IOERR, NOMEM, …), so
      // the savepoint is gone: that error, not the savepoint statement's, is what the others are told.
      return { outcome, lost: { error: outcome.error } };
    }
    return { outcome };
  }
}

const groups = new WeakMap<Kysely<Database>, TransactionGroup>();

/**
 * Makes `db`'s transactions (inTransaction) commit in groups; the storage's choice where a commit
 * holds the event loop (SQLite). Returns the group, for the storage to close before `db`.
 */
export function groupCommits(db: Kysely<Database>, maxMembers = maxGroupMembers): TransactionGroup {
  const group = new TransactionGroup(db, maxMembers);
  groups.set(db, group);
  return group;
}

/** The group `db`'s transactions commit in, if its storage asked for one. */
export function transactionGroupOf(db: Kysely<Database>): TransactionGroup | undefined {
  return groups.get(db);
}
