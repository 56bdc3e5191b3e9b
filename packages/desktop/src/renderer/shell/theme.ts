import { useEffect, useState } from 'react';

export const themes = ['system', 'light', 'dark'] as const;
export type Theme = (typeof themes)[number];

const storageKey = 'dms-theme';

function storedTheme(): Theme {
  const value = globalThis.localStorage?.getItem(storageKey);
  return themes.includes(value as Theme) ? (value as Theme) : 'system';
}

/**
 * The console follows the system's light or dark preference until the user picks one. The
 * stylesheet's colours use light-dark(), so the pick is just the root's color-scheme.
 */
export function useTheme(): [Theme, () => void] {
  const [theme, setTheme] = useState<Theme>(storedTheme);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset['theme'];
    else root.dataset['theme'] = theme;
    globalThis.localStorage?.setItem(storageKey, theme);
  }, [theme]);
  const next = () => setTheme((current) => themes[(themes.indexOf(current) + 1) % themes.length] ?? 'system');
  return [theme, next];
}
