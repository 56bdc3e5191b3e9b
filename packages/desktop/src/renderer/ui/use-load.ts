import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../trpc-client.js';

export interface Loaded<T> {
  data: T | undefined;
  /** What the last load failed with, as a sentence to show. */
  error: string | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs `load` now and whenever `key` changes (a list's query, say), keeping the last data while
 * a reload runs; an answer that arrives after a newer load started is dropped.
 */
export function useLoad<T>(load: () => Promise<T>, key: string = ''): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    const ticket = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    loadRef.current().then(
      (data) => ticket === latest.current && setState({ data, loading: false }),
      (error: unknown) => ticket === latest.current && setState((previous) => ({ data: previous.data, error: describeError(error).message, loading: false })),
    );
  }, [key, generation]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
