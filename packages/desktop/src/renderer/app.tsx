import { useEffect, useState } from 'react';
import { SignIn } from './sign-in.js';
import { Console } from './shell/console.js';
import { api, onSessionEnded } from './trpc-client.js';
import type { ConsoleUser } from './screens/screen-props.js';

export function App() {
  const [user, setUser] = useState<ConsoleUser | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // Another admin deleted this user or changed its password: back to sign-in, saying why.
  useEffect(
    () =>
      onSessionEnded((message) => {
        setUser(null);
        setNotice(`You were signed out: ${message}`);
      }),
    [],
  );
  if (!user) return <SignIn notice={notice} onSignedIn={(signedIn) => (setNotice(null), setUser(signedIn))} />;
  return (
    <Console
      user={user}
      onSignOut={() => {
        void api.auth.signOut.mutate().then(() => setUser(null));
      }}
    />
  );
}
