export { createNfsDriver, nfsScanUnsupported } from './nfs-driver.js';
export { startGaneshaServer, ganeshaCheck, type GaneshaServer, type GaneshaServerOptions } from './ganesha-server.js';
