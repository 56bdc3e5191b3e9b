import type { Selectable } from 'kysely';
import type { JobTable } from './kysely-schema.js';
import type { FirstRowReader } from './kysely-prepared.js';
import { isStorageUnavailable } from '../../errors/storage-unavailable.js';

/** The columns a finish writes, as finishedColumns makes them (steps and result as JSON text). */
export interface BatchedFinish {
  id: string;
  status: string;
  message: string | null;
  progress: number;
  total: number;
  steps: string;
  result: string | null;
}

/** One worker's turn: its finish, if it holds a job, and a claim for its next one. */
interface Turn {
  workerId: string;
  now: string;
  finish?: BatchedFinish;
  resolve: (row: Selectable<JobTable> | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * PostgreSQL: the finishes and claims of a batch in one statement, one commit. Each finish
 * applies only to a job still working for its worker (as finishUpdate). The claims take as many
 * jobs as the batch has turns, in the order single claims one after another would: a requester's
 * n-th oldest queued job comes at its working count + n, the oldest first among equals, so no
 * requester's backlog gets ahead of another's by being claimed in one batch. Like the single
 * claim, the choice is made as of before the batch's finishes (a finishing job still counts as
 * working). Each requester's oldest queued jobs, as many as the batch has turns, are locked as
 * they are read (`for update skip locked`: jobs another statement is claiming are passed over,
 * and no queue is read beyond them); those not taken are free again at the commit. A requester
 * in place p among those by working count and oldest job has p - 1 ahead with an earlier first
 * key, so at most (turns - p + 1) of its jobs can be among the batch's: it locks no more. The
 * jobs taken are updated where they were locked (by ctid, a TID scan whatever the table's
 * statistics say: by id or status a fresh table's plan read every queued job or the whole
 * table). They are still queued, locked since they were read so; were one's ctid not its
 * latest version's, the update would skip it (the qualification fails on the newer row) and
 * its turn get nothing, not another job. Claimed
 * rows come back as one JSON array (one row: the adapter's reader answers a first row), each
 * with the slot, 1-based, of the turn whose worker now holds it.
 */
export const batchStatement = `
with recursive finished as (
  update jobs set status = f.status, message = f.message, progress = f.progress, total = f.total, steps = f.steps,
    result = f.result, payload_enc = null, heartbeat_at = f.now, finished_at = f.now
  from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::text[], $8::text[], $9::text[])
    as f(id, worker_id, status, message, progress, total, steps, result, now)
  where jobs.id = any($1::text[]) and jobs.id = f.id and jobs.worker_id = f.worker_id and jobs.status = 'working'),
requesters (requested_by) as (
  select (select min(earliest.requested_by) from jobs earliest where earliest.status = 'queued')
  union all
  select (select min(later.requested_by) from jobs later where later.status = 'queued' and later.requested_by > requesters.requested_by)
  from requesters where requesters.requested_by is not null),
ranked as (
  select waiting.requested_by, busy.working,
    rank() over (order by busy.working, (select min(oldest.created_at) from jobs oldest where oldest.status = 'queued' and oldest.requested_by = waiting.requested_by)) as place
  from requesters waiting
  cross join lateral (select count(*) as working from jobs busy where busy.status = 'working' and busy.requested_by = waiting.requested_by) busy
  where waiting.requested_by is not null),
picked as materialized (
  select candidate.id, candidate.ctid, ranked.working + candidate.turn as turn, candidate.created_at
  from ranked
  cross join lateral (
    select locked.id, locked.ctid, locked.created_at, row_number() over (order by locked.created_at, locked.id) as turn
    from (select queued.id, queued.ctid, queued.created_at from jobs queued where queued.status = 'queued' and queued.requested_by = ranked.requested_by
          order by queued.created_at, queued.id limit cardinality($10::text[]) - ranked.place + 1 for update skip locked) locked) candidate
  where ranked.place <= cardinality($10::text[])
  order by turn, candidate.created_at, candidate.id
  limit cardinality($10::text[])),
slots as (select picked.id, picked.ctid, row_number() over (order by picked.turn, picked.created_at, picked.id) as slot from picked),
claimed as (
  update jobs set status = 'working', worker_id = turn.worker_id, started_at = turn.now, heartbeat_at = turn.now
  from slots join unnest($10::text[], $11::text[]) with ordinality as turn(worker_id, now, slot) on turn.slot = slots.slot
  where jobs.ctid = any(array(select slots.ctid from slots)) and jobs.id = slots.id
  returning jobs.*, turn.slot)
select coalesce(json_agg(claimed order by slot), '[]') as jobs from claimed`;

/** Most turns in one statement; more wait for the next. */
const maxTurns = 64;
/** Longest a turn is held for the jobs still running (ms); the last statement's time below it. */
const maxHoldMs = 10;

type ClaimedRow = Selectable<JobTable> & { slot: number };

/**
 * Group commit for the job queue (issue 27): the finish-and-claim and claim calls of workers go
 * together, so under load one statement, round trip and WAL flush serve several jobs. Calls made
 * while a batch statement is under way wait for it. Calls while jobs this batcher handed out are
 * still running are held for them, at most as long as the last statement took (and 10 ms): a
 * turn sent alone would make the others, finishing meanwhile, wait for it and then for their own
 * statement anyway. Nothing is held when no other job is running (one job's finish goes at once),
 * and calls made together (the workers' first claims) share a statement. A caller is answered
 * only after the statement committed: a finish is durable when acknowledged, a claim before its
 * job runs. A statement error other than storage being unavailable is retried turn by turn, so
 * one bad outcome fails only its own.
 */
export class JobBatcher {
  readonly #run: (parameters: readonly unknown[]) => unknown;
  #waiting: Turn[] = [];
  #inFlight = false;
  #planned = false;
  /** Jobs claimed through this batcher and not yet finished or given back. */
  readonly #running = new Set<string>();
  #holdMs = 0;
  /** When the first waiting turn came, or the last statement ended if later: held from then. */
  #heldSince = 0;
  #hold: NodeJS.Timeout | undefined;

  constructor(reader: FirstRowReader) {
    this.#run = reader(batchStatement);
  }

  /** Finishes `finish` (if any) and claims the next job for `workerId`, in a batch. */
  request(workerId: string, now: string, finish?: BatchedFinish): Promise<Selectable<JobTable> | undefined> {
    return new Promise((resolve, reject) => {
      if (finish) this.#running.delete(finish.id);
      if (this.#waiting.length === 0) this.#heldSince = performance.now();
      this.#waiting.push({ workerId, now, ...(finish ? { finish } : {}), resolve, reject });
      if (this.#planned) return;
      this.#planned = true;
      queueMicrotask(() => {
        this.#planned = false;
        this.#next();
      });
    });
  }

  /** A job ended or given back outside a batch (a plain finish, a requeue): no turn waits for it. */
  release(id: string): void {
    if (this.#running.delete(id) && this.#running.size === 0) this.#next();
  }

  #next(): void {
    if (this.#inFlight || this.#waiting.length === 0) return;
    const held = performance.now() - this.#heldSince;
    if (this.#running.size > 0 && held < this.#holdMs) {
      this.#hold ??= setTimeout(() => {
        this.#hold = undefined;
        this.#next();
      }, this.#holdMs - held);
      return;
    }
    clearTimeout(this.#hold);
    this.#hold = undefined;
    const turns = this.#waiting.splice(0, maxTurns);
    this.#inFlight = true;
    const started = performance.now();
    void this.#settle(turns).finally(() => {
      const ended = performance.now();
      this.#holdMs = Math.min(maxHoldMs, ended - started);
      // Turns that waited for this statement wait now for the jobs it handed out, as new ones would.
      this.#heldSince = ended;
      this.#inFlight = false;
      this.#next();
    });
  }

  async #settle(turns: Turn[]): Promise<void> {
    try {
      const rows = await this.#execute(turns);
      turns.forEach((turn, i) => turn.resolve(rows[i]));
    } catch (error) {
      if (turns.length === 1 || isStorageUnavailable(error)) {
        for (const turn of turns) turn.reject(error);
        return;
      }
      await Promise.all(
        turns.map((turn) =>
          this.#execute([turn]).then(
            (rows) => turn.resolve(rows[0]),
            (alone: unknown) => turn.reject(alone),
          ),
        ),
      );
    }
  }

  /** Runs one statement for `turns`; answers the row each turn claimed, by position. */
  async #execute(turns: readonly Turn[]): Promise<Array<Selectable<JobTable> | undefined>> {
    const finishes = turns.filter((turn) => turn.finish !== undefined) as Array<Turn & { finish: BatchedFinish }>;
    const column = <T>(pick: (turn: Turn & { finish: BatchedFinish }) => T) => finishes.map(pick);
    const row = (await this.#run([
      column((turn) => turn.finish.id),
      column((turn) => turn.workerId),
      column((turn) => turn.finish.status),
      column((turn) => turn.finish.message),
      column((turn) => turn.finish.progress),
      column((turn) => turn.finish.total),
      column((turn) => turn.finish.steps),
      column((turn) => turn.finish.result),
      column((turn) => turn.now),
      turns.map((turn) => turn.workerId),
      turns.map((turn) => turn.now),
    ])) as { jobs: ClaimedRow[] } | undefined;
    const claimed: Array<Selectable<JobTable> | undefined> = turns.map(() => undefined);
    for (const { slot, ...job } of row?.jobs ?? []) {
      claimed[slot - 1] = job;
      this.#running.add(job.id);
    }
    return claimed;
  }
}
