import { useEffect, useRef } from 'react';
import { screensFor } from './screens.js';
import type { ScreenProps } from '../screens/screen-props.js';
import { useHashRoute } from './hash-route.js';
import { useTheme } from './theme.js';
import { AlertsBadge } from './alerts-badge.js';

/** The signed-in console: a menu of screens beside the current one; the open alerts, the theme and the session in the bar. */
export function Console({ user, onSignOut }: ScreenProps & { onSignOut: () => void }) {
  const { screen: screenId, route } = useHashRoute('overview');
  // A screen the user may not open (a link to the audit log, say) is not found: the overview shows.
  const screens = screensFor(user);
  const groups = [...new Set(screens.map((screen) => screen.group))];
  const current = screens.find((entry) => entry.id === screenId) ?? screens[0]!;
  const [theme, nextTheme] = useTheme();
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    // Keyboard and screen-reader users land on the new screen's heading, not back at the menu.
    if (first.current) first.current = false;
    else heading.current?.focus();
  }, [current.id]);
  const { Component } = current;
  return (
    <div className="console">
      <a className="skip" href="#content" onClick={(event) => (event.preventDefault(), heading.current?.focus())}>
        Skip to content
      </a>
      <header className="bar">
        <span className="brand">dms console</span>
        <span className="bar-actions">
          <AlertsBadge route={route} />
          <button type="button" className="secondary" onClick={nextTheme} aria-label={`Theme: ${theme} (change)`}>
            Theme: {theme}
          </button>
          <span>
            Signed in as <strong>{user.username}</strong>
          </span>
          <button type="button" className="secondary" onClick={onSignOut}>
            Sign out
          </button>
        </span>
      </header>
      <nav aria-label="Console" className="menu">
        {groups.map((group) => (
          <div key={group || 'top'} className="menu-group">
            {group && <p className="menu-heading">{group}</p>}
            <ul>
              {screens
                .filter((screen) => screen.group === group)
                .map((screen) => (
                  <li key={screen.id}>
                    <a href={`#/${screen.id}`} aria-current={screen.id === current.id ? 'page' : undefined}>
                      {screen.title}
                    </a>
                  </li>
                ))}
            </ul>
          </div>
        ))}
      </nav>
      <main id="content">
        <h1 ref={heading} tabIndex={-1}>
          {current.title}
        </h1>
        {/* Opened anew when its address's parameters change too: a link to a filtered list lands on it. */}
        <Component key={current.id === screenId ? route : current.id} user={user} />
      </main>
    </div>
  );
}
