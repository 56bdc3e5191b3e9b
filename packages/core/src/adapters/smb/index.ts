export { createSmbDriver, type SmbDriverOptions } from './smb-driver.js';
