export { createMemoryRateLimiter, createMemoryAccessLimits } from './memory-rate-limiter.js';
