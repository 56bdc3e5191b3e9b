import { useState } from 'react';
import { useLoad, type Loaded } from './use-load.js';
import { describeError } from '../trpc-client.js';
import { isRefusal } from './form-problem.js';

/**
 * useLoad for a resource the core may refuse the signed-in user: the refusal is kept apart
 * from other errors, so the screen explains it instead of showing a broken table.
 */
export function useRefusableLoad<T>(load: () => Promise<T>, key = ''): Loaded<T> & { refusal: string | undefined } {
  const [refusal, setRefusal] = useState<string>();
  const loaded = useLoad(
    () =>
      load().then(
        (data) => (setRefusal(undefined), data),
        (error: unknown) => {
          if (isRefusal(error)) setRefusal(describeError(error).message);
          throw error;
        },
      ),
    key,
  );
  return { ...loaded, refusal };
}
