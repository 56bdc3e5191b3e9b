import type { Call } from '../call.js';
import type { FilterFieldOf, Session, SessionCollection, SortFieldOf, CallOptions } from '../types.js';
import { listQuery, pages, type ListOptions } from './crud.js';

export type SessionListOptions = ListOptions<FilterFieldOf<'listSessions'>, SortFieldOf<'listSessions'>>;

/** Signed-in sessions (GET /sessions): a user's own, an administrator's everyone's. */
export interface SessionsResource {
  list(options?: SessionListOptions): Promise<SessionCollection>;
  listAll(options?: SessionListOptions): AsyncIterableIterator<Session>;
  /** Ends a session: its token is refused from its next request on. */
  delete(id: string, options?: CallOptions): Promise<void>;
}

export function sessionsResource(call: Call): SessionsResource {
  const list = (options: ListOptions<string, string> = {}) =>
    call('GET', '/sessions', { query: listQuery(options), signal: options.signal }) as Promise<SessionCollection>;
  return {
    list,
    listAll: (options = {}) => pages<Session>(list, 'sessions', options),
    delete: async (id, options = {}) => {
      await call('DELETE', '/sessions/{session_id}', { path: { session_id: id }, signal: options.signal });
    },
  };
}
