import type { ScreenProps } from '../screen-props.js';
import { RestServerSection } from './rest-server-section.js';
import { AllowedHostsSection } from './allowed-hosts-section.js';
import './settings.css';

/** This instance's settings: the embedded REST server, and where share tests may connect (admin only). */
export function SettingsScreen({ user }: ScreenProps) {
  return (
    <>
      <RestServerSection admin={user.admin} />
      {user.admin ? (
        <AllowedHostsSection />
      ) : (
        <section aria-labelledby="allowed-hosts-heading">
          <h2 id="allowed-hosts-heading">Share-test allowed hosts</h2>
          <p className="hint">Only an admin can see and change where share tests and scans may connect.</p>
        </section>
      )}
    </>
  );
}
