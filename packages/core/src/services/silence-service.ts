import type { CoreDeps } from './core-deps.js';
import { ownerUserIdOf, type Principal } from '../scopes/principal.js';
import type { SilenceRecord, SilenceWindow } from '../ports/silence-store.js';
import { authorize, authorizeAdmin } from '../scopes/scope-check.js';
import type { ScopeAction } from '../scopes/scope-catalogue.js';
import { parseInput } from '../validation/zod-details.js';
import { DomainError } from '../errors/domain-error.js';
import { maxSilences, silenceCreateSchema, silenceListSpec, silenceUpdateSchema, windowHolds, type Silence, type SilenceMatchers } from '../domain/silence.js';
import { parseListQuery, type RawQuery } from '../list-query/parse-list-query.js';
import { newestFirst } from '../list-query/newest-first.js';
import { findByNumericId } from './resolve-ref.js';
import { auditResource, describeChanges, type AuditTrail } from './audit-trail.js';
import { RecurrenceError, type Recurrences } from '../schedules/recurrence.js';
import { RuleCheckGate } from '../schedules/rule-check-gate.js';
import type { AlertService } from './alert-service.js';

const silenceAudit = (silence: Pick<SilenceRecord, 'id' | 'reason'>) => auditResource('silences', silence.id, silence.reason.slice(0, 80));

/** A silence as the API shows it: whether it holds now, by the injected clock. */
export function presentSilence(record: SilenceRecord, now: Date): Silence {
  return { ...record, active: windowHolds(record, now.toISOString()) };
}

/** The fields that say when a silence holds, after a create or a partial update. */
interface SilenceTiming {
  starts_at: string;
  ends_at: string | null;
  rrule: string | null;
  duration_seconds: number | null;
  until_cleared: boolean;
}

const invalid = (field: string, message: string) => DomainError.invalid({ [field]: [{ error: 'invalid' }] }, [message]);
const iso = (value: string) => new Date(value).toISOString();

/**
 * `/silences` (issue 44, docs/api.md#silences): alerts a silence matches are still raised and
 * listed, but their raise, change and clear are sent to no channel (nor as a trap) while it
 * holds; once it is over, an alert still open is told once (docs/decisions/171-silences.md).
 * Anyone with the scope reads them; only admins make them, since they mute what everyone hears.
 */
export class SilenceService {
  readonly #gate: RuleCheckGate;

  constructor(
    private readonly deps: CoreDeps,
    private readonly audit: AuditTrail,
    private readonly alerts: Pick<AlertService, 'reviewSilences'>,
    /** The API's rule worker: a submitted rule is checked at its caller's cost (docs/decisions/108-…). */
    private readonly ruleChecks: Recurrences,
    /** The service's own worker: windows are moved on with it, never behind a caller's rule. */
    private readonly windows: Pick<Recurrences, 'next'>,
  ) {
    this.#gate = new RuleCheckGate(deps.clock, () => ruleChecks.pending);
  }

  #authorizeChange(principal: Principal, action: ScopeAction<'silences'>): void {
    authorizeAdmin(principal, 'silences', action, 'silence alerts');
  }

  private get(ref: string): Promise<SilenceRecord> {
    return findByNumericId(ref, 'silence_id', (id) => this.deps.storage.silences.get(id));
  }

  async list(principal: Principal, raw: RawQuery): Promise<{ count: number; silences: Silence[] }> {
    authorize(principal, 'silences', 'index');
    const page = await this.deps.storage.silences.list(newestFirst(parseListQuery(raw, silenceListSpec), 'id'));
    const now = this.deps.clock();
    return { count: page.count, silences: page.items.map((record) => presentSilence(record, now)) };
  }

  async show(principal: Principal, ref: string): Promise<Silence> {
    authorize(principal, 'silences', 'show');
    return presentSilence(await this.get(ref), this.deps.clock());
  }

  async create(principal: Principal, body: unknown): Promise<Silence> {
    this.#authorizeChange(principal, 'create');
    const input = parseInput(silenceCreateSchema, body);
    const now = this.deps.clock();
    const timing = this.#timing(
      {
        starts_at: input.starts_at === undefined ? now.toISOString() : iso(input.starts_at),
        ends_at: input.ends_at == null ? null : iso(input.ends_at),
        rrule: input.rrule ?? null,
        duration_seconds: input.duration_seconds ?? null,
        until_cleared: input.until_cleared ?? false,
      },
      now,
    );
    if ((await this.deps.storage.silences.count()) >= maxSilences) {
      throw new DomainError('conflict', `at most ${maxSilences} silences are kept: delete some that are over first`, {
        details: { silences: [{ error: 'less_than_or_equal_to', count: maxSilences }] },
      });
    }
    const window = await this.#firstWindow(principal, timing, now);
    const created = await this.audit.change(principal, async (stores) => {
      const record = await stores.silences.create({
        matchers: input.matchers,
        ...timing,
        reason: input.reason,
        created_by: ownerUserIdOf(principal),
        window_starts_at: window?.window_starts_at ?? null,
        window_ends_at: window?.window_ends_at ?? null,
      });
      return { result: record, audit: { action: 'create', resource: silenceAudit(record), changes: describeChanges(null, record, input) } };
    });
    await this.alerts.reviewSilences();
    return presentSilence(created, now);
  }

  /** A partial update: what is sent replaces what is stored; the whole is checked again (set `ends_at: null` to move to an `rrule`). */
  async update(principal: Principal, ref: string, body: unknown): Promise<Silence> {
    this.#authorizeChange(principal, 'update');
    const input = parseInput(silenceUpdateSchema, body);
    const current = await this.get(ref);
    const now = this.deps.clock();
    // A silence over for good (its end past, or its alert cleared) is not revived by an edit: a new one says what is meant.
    if (current.rrule === null && current.window_ends_at !== null && current.window_ends_at <= now.toISOString()) {
      throw new DomainError('conflict', `silence ${current.id} ended at ${current.window_ends_at}: create another one instead`, {
        details: { silence_id: [{ error: 'frozen', value: current.id }] },
      });
    }
    const timing = this.#timing(
      {
        starts_at: input.starts_at === undefined ? current.starts_at : iso(input.starts_at),
        ends_at: input.ends_at === undefined ? current.ends_at : input.ends_at === null ? null : iso(input.ends_at),
        rrule: input.rrule === undefined ? current.rrule : input.rrule,
        duration_seconds: input.duration_seconds === undefined ? current.duration_seconds : input.duration_seconds,
        until_cleared: input.until_cleared ?? current.until_cleared,
      },
      now,
    );
    const window = await this.#firstWindow(principal, timing, now);
    const updated = await this.audit.change(principal, async (stores) => {
      const record = await stores.silences.update(current.id, {
        ...(input.matchers === undefined ? {} : { matchers: input.matchers as SilenceMatchers }),
        ...(input.reason === undefined ? {} : { reason: input.reason }),
        ...timing,
        window_starts_at: window?.window_starts_at ?? null,
        window_ends_at: window?.window_ends_at ?? null,
      });
      if (!record) throw DomainError.notFound('silence_id', ref);
      return { result: record, audit: { action: 'update', resource: silenceAudit(record), changes: describeChanges(current, record, input) } };
    });
    await this.alerts.reviewSilences();
    return presentSilence(updated, now);
  }

  /** Deleting a silence ends it: an alert it held that is still open is told once. */
  async destroy(principal: Principal, ref: string): Promise<void> {
    this.#authorizeChange(principal, 'destroy');
    const current = await this.get(ref);
    await this.audit.change(principal, async (stores) => ({
      result: await stores.silences.delete(current.id),
      audit: { action: 'delete', resource: silenceAudit(current), changes: null },
    }));
    await this.alerts.reviewSilences();
  }

  /**
   * The tick (the alert sweep's): each rrule silence whose window closed gets its next one, by
   * whichever replica moves it first; then the open alerts are looked at against what holds now.
   */
  async review(): Promise<void> {
    const now = this.deps.clock();
    for (const silence of await this.deps.storage.silences.windowsOver(now.toISOString())) {
      const next = await this.#windowOf(silence, now, (rrule, after) => this.windows.next(rrule, after)).catch((error: unknown) => {
        if (error instanceof RecurrenceError) return null;
        throw error;
      });
      await this.deps.storage.silences.moveWindow(silence.id, silence.window_ends_at, next);
    }
    await this.alerts.reviewSilences();
  }

  /** Checks when a silence holds: exactly one way to end, an end after its start and not past. */
  #timing(timing: SilenceTiming, now: Date): SilenceTiming {
    const ways = [timing.ends_at !== null, timing.rrule !== null, timing.until_cleared].filter(Boolean).length;
    if (ways !== 1) {
      const field = timing.ends_at !== null ? 'ends_at' : timing.rrule !== null ? 'rrule' : 'until_cleared';
      throw invalid(field, 'set exactly one of ends_at (a fixed end), rrule (a repeating maintenance window) and until_cleared (ends when its alert clears)');
    }
    if (timing.ends_at !== null) {
      if (timing.ends_at <= now.toISOString()) throw invalid('ends_at', `ends_at (${timing.ends_at}) is already past`);
      if (timing.ends_at <= timing.starts_at) throw invalid('ends_at', `ends_at (${timing.ends_at}) must be after starts_at (${timing.starts_at})`);
    }
    if (timing.rrule !== null && timing.duration_seconds === null)
      throw invalid('duration_seconds', 'an rrule silence needs duration_seconds: how long each window lasts');
    if (timing.rrule === null && timing.duration_seconds !== null) throw invalid('duration_seconds', 'duration_seconds is for an rrule silence only');
    return timing;
  }

  /** The window a silence holds now or next; an rrule one is checked as schedules' rules are, at the caller's cost (422 on `rrule`). */
  async #firstWindow(principal: Principal, timing: SilenceTiming, now: Date): Promise<SilenceWindow | null> {
    if (timing.rrule === null) return { window_starts_at: timing.starts_at, window_ends_at: timing.ends_at };
    const durationMs = (timing.duration_seconds ?? 0) * 1000;
    try {
      // Occurrences no closer than a window lasts: windows never overlap, and the rule's cost is bounded as a schedule's.
      return await this.#gate.run(
        principal,
        () => this.#windowOf(timing, now, (rrule, after) => this.ruleChecks.check(rrule, after, durationMs)),
        (error) => error instanceof RecurrenceError && error.timedOut,
      );
    } catch (error) {
      if (!(error instanceof RecurrenceError)) throw error;
      throw new DomainError('validation', `rrule ${error.message}`, { details: { rrule: [{ error: 'invalid' }] } });
    }
  }

  /** The first occurrence whose window has not closed by `now` (and opens at or after starts_at); null when the rule has ended. */
  async #windowOf(
    timing: Pick<SilenceTiming, 'rrule' | 'duration_seconds' | 'starts_at'>,
    now: Date,
    next: (rrule: string, after: Date) => Promise<Date | null>,
  ): Promise<SilenceWindow | null> {
    const durationMs = (timing.duration_seconds ?? 0) * 1000;
    const after = new Date(Math.max(now.getTime() - durationMs, new Date(timing.starts_at).getTime() - 1));
    const opens = await next(timing.rrule ?? '', after);
    if (!opens) return null;
    return { window_starts_at: opens.toISOString(), window_ends_at: new Date(opens.getTime() + durationMs).toISOString() };
  }
}
