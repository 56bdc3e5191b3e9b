import { inTransaction } from './kysely-transaction.js';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { JobInsert, JobOutcome, JobProgress, JobRecord, JobStore, QueueBounds, TestToAdopt } from '../../ports/job-store.js';
import { jobStatuses, unfinishedJobStatuses, type JobStatus, type StepOutcome, type UnfinishedJobStatus } from '../../domain/job.js';
import type { Database } from './kysely-schema.js';
import { jobColumns, type JobTable } from '../../tables/jobs.table.js';
import { parseJsonText, toJsonText } from '../../tables/json-text.js';
import type { DialectQuirks } from './kysely-dialect-quirks.js';
import { preparedFirst, type FirstRowReader } from './kysely-prepared.js';
import { JobBatcher } from './kysely-job-batch.js';
import type { ListQuery } from '../../list-query/list-query.js';
import { listRows } from './kysely-list-rows.js';
import { listDefaults } from '../../defaults.js';

/** Takes the oldest queued job of the requester with the fewest working jobs, atomically. */
function claimStatement(quirks: DialectQuirks, workerId: string, now: string) {
  return sql<Selectable<JobTable>>`
      update jobs set status = 'working', worker_id = ${workerId}, started_at = ${now}, heartbeat_at = ${now}
      where id = (select id from jobs where status = 'queued' and requested_by = (
            -- Per requester, not per job: the working count is looked up once for each requester
            -- that has queued jobs, however long its queue. The requesters are found by skipping
            -- through the jobs_requester index (status, requested_by, created_at, id), one probe each,
            -- and so is each one's oldest queued job: no read of the whole queue per claim.
            with recursive requesters (requested_by) as (
              select (select min(earliest.requested_by) from jobs earliest where earliest.status = 'queued')
              union all
              select (select min(later.requested_by) from jobs later where later.status = 'queued' and later.requested_by > requesters.requested_by)
              from requesters where requesters.requested_by is not null)
            select waiting.requested_by from requesters waiting where waiting.requested_by is not null
            order by (select count(*) from jobs busy where busy.status = 'working' and busy.requested_by = waiting.requested_by),
              (select min(oldest.created_at) from jobs oldest where oldest.status = 'queued' and oldest.requested_by = waiting.requested_by)
            limit 1)
          order by created_at, id
          limit 1 ${sql.raw(quirks.claimLockClause)})
        and status = 'queued'
      returning *`;
}

/** The columns a finish writes: the outcome, the payload erased, the times. */
function finishedColumns(outcome: JobOutcome, now: string) {
  return {
    status: outcome.status,
    message: outcome.message,
    progress: outcome.progress,
    total: outcome.total,
    steps: toJsonText(outcome.steps),
    result: outcome.result == null ? null : toJsonText(outcome.result),
    payload_enc: null,
    heartbeat_at: now,
    finished_at: now,
  };
}

type FinishedColumns = ReturnType<typeof finishedColumns>;
type FinishedColumnValues = [FinishedColumns['status'], FinishedColumns['message'], number, number, FinishedColumns['steps'], FinishedColumns['result']];

/** Ends a job this worker holds (nothing if another replica failed it as stale meanwhile). */
function finishUpdate(db: Kysely<Database>, id: string, workerId: string, columns: FinishedColumns) {
  return db.updateTable('jobs').set(columns).where('id', '=', id).where('worker_id', '=', workerId).where('status', '=', 'working');
}

const noSteps = toJsonText<StepOutcome[]>([]);

function toRecord(row: Selectable<JobTable>): JobRecord {
  return {
    ...row,
    steps: parseJsonText(row.steps),
    result: row.result === null ? null : parseJsonText(row.result),
  };
}

export class KyselyJobStore implements JobStore {
  readonly #claim: (workerId: string, now: string) => Promise<Selectable<JobTable> | undefined>;
  /** Where the dialect has writable CTEs: the finish as one of the claim, one statement. */
  readonly #finishAndClaim?: (id: string, workerId: string, now: string, ...values: FinishedColumnValues) => Promise<Selectable<JobTable> | undefined>;
  /** PostgreSQL outside a transaction: claims and finishes of concurrent workers share statements. */
  readonly #batcher?: JobBatcher;

  /** `writeRunner`: where the adapter has one, runs the claim statements as statements planned once. */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly quirks: DialectQuirks,
    writeRunner?: FirstRowReader,
  ) {
    this.#claim = preparedFirst(db, (workerId: string, now: string) => ({ compile: () => claimStatement(quirks, workerId, now).compile(db) }), 2, writeRunner);
    // The batch statement is PostgreSQL's (arrays, json_agg), the one dialect with writable CTEs.
    if (quirks.writableCtes && writeRunner) this.#batcher = new JobBatcher(writeRunner);
    if (quirks.writableCtes) {
      this.#finishAndClaim = preparedFirst(
        db,
        (id: string, workerId: string, now: string, ...[status, message, progress, total, steps, result]: FinishedColumnValues) => ({
          compile: () =>
            sql<
              Selectable<JobTable>
            >`with finished as (${finishUpdate(db, id, workerId, { status, message, progress, total, steps, result, payload_enc: null, heartbeat_at: now, finished_at: now })})
              ${claimStatement(quirks, workerId, now)}`.compile(db),
        }),
        9,
        writeRunner,
      );
    }
  }

  async enqueue(job: JobInsert, bounds?: QueueBounds) {
    const requestedBy = job.requested_by ?? 'system';
    const values = {
      ...job,
      requested_by: requestedBy,
      requester: job.requester ?? requestedBy,
      schedule_id: job.schedule_id ?? null,
      test_fingerprint: job.test_fingerprint ?? null,
      status: 'queued' as const,
      progress: 0,
      message: null,
      steps: noSteps,
      result: null,
      worker_id: null,
      heartbeat_at: null,
      started_at: null,
      finished_at: null,
    };
    if (!bounds) return toRecord(await this.db.insertInto('jobs').values(values).returningAll().executeTakeFirstOrThrow());
    // One statement: the bound is checked and the job stored without another request between
    // them. Under a lock too: on PostgreSQL two such statements would each count without
    // seeing the other's insert, and both pass a bound that has room for one.
    const row = await inTransaction(this.db, async (trx) => {
      await this.quirks.lockUntilCommit(trx, 'dms_jobs_enqueue');
      const unfinished = (requester?: string) =>
        trx
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', 'in', unfinishedJobStatuses)
          .$if(requester !== undefined, (qb) => qb.where('requested_by', '=', requester!));
      const columns = Object.keys(values) as Array<keyof typeof values>;
      return await trx
        .insertInto('jobs')
        .columns(columns)
        .expression(
          trx
            .selectNoFrom(columns.map((column) => sql.val(values[column]).as(column)))
            .where(sql<boolean>`(${unfinished(requestedBy)}) < ${bounds.perRequester} and (${unfinished()}) < ${bounds.total}`),
        )
        .returningAll()
        .executeTakeFirst();
    });
    return row && toRecord(row);
  }

  async countUnfinished(requestedBy?: string) {
    let query = this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', unfinishedJobStatuses);
    if (requestedBy !== undefined) query = query.where('requested_by', '=', requestedBy);
    return Number((await query.executeTakeFirstOrThrow()).n);
  }

  async countUnfinishedOfSchedule(scheduleId: number) {
    const row = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('schedule_id', '=', scheduleId)
      .where('status', 'in', unfinishedJobStatuses)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async get(id: string) {
    const row = await this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async claim(workerId: string, now: string) {
    const row = this.#batcher ? await this.#batcher.request(workerId, now) : await this.#claim(workerId, now);
    return row && toRecord(row);
  }

  async progress(id: string, workerId: string, progress: JobProgress, now: string) {
    await this.db
      .updateTable('jobs')
      .set({
        progress: progress.progress,
        total: progress.total,
        steps: toJsonText(progress.steps),
        ...(progress.result === undefined ? {} : { result: progress.result === null ? null : toJsonText(progress.result) }),
        heartbeat_at: now,
      })
      .where('id', '=', id)
      .where('worker_id', '=', workerId)
      .where('status', '=', 'working')
      .execute();
  }

  async finish(id: string, workerId: string, outcome: JobOutcome, now: string) {
    this.#batcher?.release(id);
    const row = await finishUpdate(this.db, id, workerId, finishedColumns(outcome, now)).returningAll().executeTakeFirst();
    return row && toRecord(row);
  }

  async finishAndClaim(id: string, workerId: string, outcome: JobOutcome, now: string) {
    const columns = finishedColumns(outcome, now);
    if (this.#batcher) {
      const { status, message, progress, total, steps, result } = columns;
      const row = await this.#batcher.request(workerId, now, { id, status, message, progress, total, steps, result });
      return row && toRecord(row);
    }
    if (this.#finishAndClaim) {
      const row = await this.#finishAndClaim(
        id,
        workerId,
        now,
        columns.status,
        columns.message,
        columns.progress,
        columns.total,
        columns.steps,
        columns.result,
      );
      return row && toRecord(row);
    }
    const row = await inTransaction(this.db, async (trx) => {
      await finishUpdate(trx, id, workerId, columns).execute();
      return (await claimStatement(this.quirks, workerId, now).execute(trx)).rows[0];
    });
    return row && toRecord(row);
  }

  async requeue(id: string, workerId: string) {
    this.#batcher?.release(id);
    const row = await this.db
      .updateTable('jobs')
      .set({ status: 'queued', worker_id: null, started_at: null, heartbeat_at: null, progress: 0, message: null, steps: noSteps, result: null })
      .where('id', '=', id)
      .where('worker_id', '=', workerId)
      .where('status', '=', 'working')
      .returningAll()
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async failStale(staleBefore: string, message: string, now: string) {
    const rows = await this.db
      .updateTable('jobs')
      .set({ status: 'failed', message, payload_enc: null, finished_at: now })
      .where('status', '=', 'working')
      .where('heartbeat_at', '<', staleBefore)
      .returningAll()
      .execute();
    return rows.map(toRecord);
  }

  async purgeFinished(before: string, limit: number) {
    // Only a finished job has a finished_at: no status condition, which made SQLite walk the
    // status index and sort every finished job for each batch (bench: 168 ms a batch, 45 without).
    const oldest = this.db.selectFrom('jobs').select('id').where('finished_at', '<', before).orderBy('finished_at').limit(limit);
    const result = await this.db.deleteFrom('jobs').where('id', 'in', oldest).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async list(query: ListQuery) {
    // Every column: the payload is selected too but never leaves the core (JobService presents).
    const page = await listRows<Selectable<JobTable>>(this.db, this.quirks, 'jobs', jobColumns, query, { countWindow: listDefaults.historyCountWindow });
    return { ...page, items: page.items.map(toRecord) };
  }

  async countByStatus() {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('status')
      .execute();
    const counts = Object.fromEntries(jobStatuses.map((status) => [status, 0])) as Record<JobStatus, number>;
    for (const row of rows) counts[row.status as JobStatus] = Number(row.count);
    return counts;
  }

  async countUnfinishedByKind() {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['kind', 'status', (eb) => eb.fn.countAll<number>().as('count')])
      .where('status', 'in', unfinishedJobStatuses)
      .groupBy(['status', 'kind'])
      .execute();
    return rows.map((row) => ({ kind: row.kind, status: row.status as UnfinishedJobStatus, count: Number(row.count) }));
  }

  async failedTestsSince(since: string) {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['share_id', (eb) => eb.fn.countAll<number>().as('count')])
      .where('kind', '=', 'share_test')
      .where('status', '=', 'failed')
      .where('finished_at', '>=', since)
      .where('share_id', 'is not', null)
      .groupBy('share_id')
      .orderBy('share_id')
      .execute();
    return rows.map((row) => ({ share_id: Number(row.share_id), count: Number(row.count) }));
  }

  async adoptTest(test: TestToAdopt, shareId: number) {
    // Called in the share's create transaction: the share and the test it takes commit together.
    const found = await this.db
      .selectFrom('jobs')
      .select('id')
      .where('nas_id', '=', test.nasId)
      .where('test_fingerprint', '=', test.fingerprint)
      .where('kind', '=', 'share_test')
      .where('share_id', 'is', null)
      .where('status', 'in', ['completed', 'failed'])
      .where('finished_at', '>=', test.finishedSince)
      .orderBy('finished_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!found) return undefined;
    const row = await this.db
      .updateTable('jobs')
      .set({ share_id: shareId, test_fingerprint: null })
      .where('id', '=', found.id)
      .where('share_id', 'is', null)
      .returningAll()
      .executeTakeFirst();
    return row && toRecord(row);
  }
}
