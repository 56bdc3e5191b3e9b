/** Who is signed in: the name, whether an admin, and the scopes (`controller/action`) the role grants. */
export interface ConsoleUser {
  username: string;
  admin: boolean;
  scopes: readonly string[];
}

/** What every screen gets: who is signed in (some screens are for admins only). */
export interface ScreenProps {
  user: ConsoleUser;
}
