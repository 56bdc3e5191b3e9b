export { runStorageContract, type StorageFactory } from './storage-contract.js';
export { requireTools, findTool, type ToolCheck } from './require-tool.js';
