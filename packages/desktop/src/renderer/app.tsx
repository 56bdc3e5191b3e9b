import { useState } from 'react';
import { SignIn } from './sign-in.js';
import { Console } from './shell/console.js';
import { api } from './trpc-client.js';

export function App() {
  const [user, setUser] = useState<{ username: string; admin: boolean } | null>(null);
  if (!user) return <SignIn onSignedIn={setUser} />;
  return (
    <Console
      user={user}
      onSignOut={() => {
        void api.auth.signOut.mutate().then(() => setUser(null));
      }}
    />
  );
}
