import type { Call } from '../call.js';
import { jobHandle, preferJobResource, type FollowJob, type JobHandle } from '../jobs.js';
import type {
  ActiveJobStatus,
  CallOptions,
  FilterFieldOf,
  SortFieldOf,
  NasShare,
  NasShareCollection,
  NasShareCreate,
  NasShareUpdate,
  Ref,
  ScanComparison,
  ShareScan,
  ShareScanCollection,
  ShareScanDetail,
} from '../types.js';
import { listQuery, pages, type ListOptions } from './crud.js';
import { readJob } from './jobs.js';

/** Where a share is addressed: under its NAS, in its pool, or among all shares. */
export type ShareScope = { nasId: Ref; poolId?: never } | { poolId: Ref; nasId?: never } | { nasId?: undefined; poolId?: undefined };

type ShareListOptions<Id extends 'listNasSharesByNas' | 'listNasSharesByPool' | 'listNasShares'> = ListOptions<FilterFieldOf<Id>, SortFieldOf<Id>>;
/** A list under a NAS does not filter on nas_id, a list in a pool not on pool_id. */
export type NasShareListOptions =
  | ({ nasId: Ref; poolId?: never } & ShareListOptions<'listNasSharesByNas'>)
  | ({ poolId: Ref; nasId?: never } & ShareListOptions<'listNasSharesByPool'>)
  | ({ nasId?: undefined; poolId?: undefined } & ShareListOptions<'listNasShares'>);

/** A share's scan history filters and sorts on the same attributes (GET /nas_shares/{nas_share_id}/scans). */
export type ShareScanListOptions = ListOptions<FilterFieldOf<'listNasShareScans'>, SortFieldOf<'listNasShareScans'>>;

export interface NasSharesResource {
  list(options?: NasShareListOptions): Promise<NasShareCollection>;
  /** Every matching share, page after page (`limit` a request, 100 by default). */
  listAll(options?: NasShareListOptions): AsyncIterableIterator<NasShare>;
  get(ref: Ref, options?: ShareScope & CallOptions): Promise<NasShare>;
  create(nasId: Ref, body: NasShareCreate, options?: CallOptions): Promise<NasShare>;
  /** A partial update: absent fields stay, `null` clears an optional one. */
  update(ref: Ref, body: NasShareUpdate, options?: ShareScope & CallOptions): Promise<NasShare>;
  delete(ref: Ref, options?: ShareScope & CallOptions): Promise<void>;
  /** Tests an unsaved share of a NAS: really connects with its credentials. */
  test(nasId: Ref, body: NasShareCreate, options?: CallOptions): Promise<JobHandle>;
  /** Tests a saved share with its stored credentials. */
  retest(ref: Ref, options?: CallOptions): Promise<JobHandle>;
  /** Walks a saved share; completed, it has stored `file_count` and `file_size_sum`. */
  scan(ref: Ref, options?: CallOptions): Promise<JobHandle>;
  /** A handle on a test started earlier with `test` (by its job id). */
  followTest(nasId: Ref, jobId: string, options?: CallOptions): Promise<JobHandle>;
  followRetest(ref: Ref, jobId: string, options?: CallOptions): Promise<JobHandle>;
  followScan(ref: Ref, jobId: string, options?: CallOptions): Promise<JobHandle>;
  /** One page of the share's completed scans (`at`, counts, `duration_ms`), newest first unless `sortBy` says otherwise, and `count`. */
  scans(ref: Ref, options?: ShareScanListOptions): Promise<ShareScanCollection>;
  /** Every matching scan of the share, page after page (`limit` a request, 100 by default). */
  allScans(ref: Ref, options?: ShareScanListOptions): AsyncIterableIterator<ShareScan>;
  /** One completed scan with its `analytics` (top directories, histograms, extensions, largest files; null for older scans). */
  getScan(ref: Ref, scanId: number, options?: CallOptions): Promise<ShareScanDetail>;
  /** What changed between two scans of the share: `top_growers` and both scans' histograms side by side. */
  compareScans(ref: Ref, scans: { from: number; to: number }, options?: CallOptions): Promise<ScanComparison>;
}

/** The collection path of a scope, and its path parameters. */
function collection(scope: ShareScope): { path: string; params: Record<string, string> } {
  if (scope.nasId !== undefined) return { path: '/nas/{nas_id}/nas_shares', params: { nas_id: String(scope.nasId) } };
  if (scope.poolId !== undefined) return { path: '/pools/{pool_id}/nas_shares', params: { pool_id: String(scope.poolId) } };
  return { path: '/nas_shares', params: {} };
}

export function nasSharesResource(call: Call): NasSharesResource {
  const list = (options: NasShareListOptions = {}) => {
    const { path, params } = collection(options);
    return call('GET', path, { path: params, query: listQuery(options as ListOptions<string, string>), signal: options.signal }) as Promise<NasShareCollection>;
  };
  const item = (ref: Ref, scope: ShareScope) => {
    const { path, params } = collection(scope);
    return { path: `${path}/{nas_share_id}`, params: { ...params, nas_share_id: String(ref) } };
  };
  const itemCall = (method: 'GET' | 'PUT' | 'DELETE', ref: Ref, options: ShareScope & CallOptions, body?: unknown) => {
    const { path, params } = item(ref, options);
    return call(method, path, { path: params, body, signal: options.signal });
  };

  /**
   * A job of a path (`…/-/test`, `…/{id}/test`, `…/{id}/scan`): started by PUT, followed by
   * GET /jobs/{job_id} (each handle its own, see preferJobResource).
   */
  const jobs = (path: string, params: Record<string, string>) => {
    const startedOn: FollowJob = (jobId, wait, signal) =>
      call('GET', path, { path: params, query: { job_id: jobId, wait: String(wait) }, signal }) as Promise<ActiveJobStatus>;
    const follow = () => preferJobResource(readJob(call), startedOn);
    return {
      start: async (body: unknown, options: CallOptions) =>
        jobHandle((await call('PUT', path, { path: params, body, signal: options.signal })) as ActiveJobStatus, follow()),
      follow: async (jobId: string, options: CallOptions) => {
        const handleFollow = follow();
        return jobHandle(await handleFollow(jobId, 0, options.signal), handleFollow);
      },
    };
  };
  /** GET /nas_shares/{nas_share_id}/scans of one share, as `pages` takes a list. */
  const listScans =
    (ref: Ref) =>
    (options: ListOptions<string, string> = {}) =>
      call('GET', '/nas_shares/{nas_share_id}/scans', {
        path: { nas_share_id: String(ref) },
        query: listQuery(options),
        signal: options.signal,
      }) as Promise<ShareScanCollection>;
  const unsaved = (nasId: Ref) => jobs('/nas/{nas_id}/nas_shares/-/test', { nas_id: String(nasId) });
  const saved = (ref: Ref, kind: 'test' | 'scan') => jobs(`/nas_shares/{nas_share_id}/${kind}`, { nas_share_id: String(ref) });

  return {
    list,
    listAll: (options = {}) =>
      pages<NasShare>(list as (o: ListOptions<string, string>) => Promise<unknown>, 'nas_shares', options as ListOptions<string, string>),
    get: (ref, options = {}) => itemCall('GET', ref, options) as Promise<NasShare>,
    create: (nasId, body, options = {}) =>
      call('POST', '/nas/{nas_id}/nas_shares', { path: { nas_id: String(nasId) }, body, signal: options.signal }) as Promise<NasShare>,
    update: (ref, body, options = {}) => itemCall('PUT', ref, options, body) as Promise<NasShare>,
    delete: async (ref, options = {}) => {
      await itemCall('DELETE', ref, options);
    },
    test: (nasId, body, options = {}) => unsaved(nasId).start(body, options),
    retest: (ref, options = {}) => saved(ref, 'test').start(undefined, options),
    scan: (ref, options = {}) => saved(ref, 'scan').start(undefined, options),
    followTest: (nasId, jobId, options = {}) => unsaved(nasId).follow(jobId, options),
    followRetest: (ref, jobId, options = {}) => saved(ref, 'test').follow(jobId, options),
    followScan: (ref, jobId, options = {}) => saved(ref, 'scan').follow(jobId, options),
    scans: (ref, options = {}) => listScans(ref)(options),
    allScans: (ref, options = {}) => pages<ShareScan>(listScans(ref), 'scans', options),
    getScan: (ref, scanId, options = {}) =>
      call('GET', '/nas_shares/{nas_share_id}/scans/{scan_id}', {
        path: { nas_share_id: String(ref), scan_id: String(scanId) },
        signal: options.signal,
      }) as Promise<ShareScanDetail>,
    compareScans: (ref, { from, to }, options = {}) =>
      call('GET', '/nas_shares/{nas_share_id}/scans/compare', {
        path: { nas_share_id: String(ref) },
        query: { from: String(from), to: String(to) },
        signal: options.signal,
      }) as Promise<ScanComparison>,
  };
}
