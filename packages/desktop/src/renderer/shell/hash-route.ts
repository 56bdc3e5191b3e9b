import { useEffect, useState } from 'react';

/** The address's hash after `#/`: a screen's id, and after `?` its parameters (`shares?health=unreachable`). */
function currentHash(): string {
  return globalThis.location.hash.replace(/^#\/?/, '');
}

/** The screen in the address's hash (`#/shares`): links work, and Back returns to the last screen. */
export function useHashRoute(fallback: string): { screen: string; route: string } {
  const [route, setRoute] = useState(currentHash);
  useEffect(() => {
    const onChange = () => setRoute(currentHash());
    globalThis.addEventListener('hashchange', onChange);
    return () => globalThis.removeEventListener('hashchange', onChange);
  });
  return { screen: route.split('?')[0] || fallback, route };
}

/**
 * The parameters of the screen's address (`#/shares?health=unreachable`), read when the screen
 * opens: the console opens a screen anew when they change, so a link from another screen (the
 * overview's health counts, say) lands on the list it names.
 */
export function hashParams(): URLSearchParams {
  const query = currentHash().split('?')[1];
  return new URLSearchParams(query ?? '');
}
