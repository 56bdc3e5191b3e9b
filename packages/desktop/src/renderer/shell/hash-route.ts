import { useEffect, useState } from 'react';

/** The screen in the address's hash (`#/shares`): links work, and Back returns to the last screen. */
export function useHashRoute(fallback: string): string {
  const read = () => globalThis.location.hash.replace(/^#\/?/, '') || fallback;
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const onChange = () => setRoute(read());
    globalThis.addEventListener('hashchange', onChange);
    return () => globalThis.removeEventListener('hashchange', onChange);
  });
  return route;
}
