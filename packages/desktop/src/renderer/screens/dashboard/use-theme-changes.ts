import { useEffect } from 'react';

/**
 * Calls `onChange` when the console's colours change: the user picks a theme (the root's
 * data-theme), or the system turns light or dark while the console follows it.
 */
export function useThemeChanges(onChange: () => void): void {
  useEffect(() => {
    const media = globalThis.matchMedia('(prefers-color-scheme: dark)');
    const observer = new MutationObserver(onChange);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    media.addEventListener('change', onChange);
    return () => (observer.disconnect(), media.removeEventListener('change', onChange));
  }, [onChange]);
}
