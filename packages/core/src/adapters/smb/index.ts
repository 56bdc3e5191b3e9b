export { createSmbDriver, type SmbDriverOptions } from './smb-driver.js';
export {
  startSambaServer,
  sambaCheck,
  type SambaServer,
  type SambaServerOptions,
  type SambaUser,
} from './samba-server.js';
