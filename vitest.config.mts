import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A worker per core, two at least (vitest's default leaves one core free, which on two cores runs the files one
    // at a time): the end-to-end tests spend much of their time waiting on the engine and the stand-in model.
    // Measured on 2 cores: `npm test`'s vitest run took 972 s with one worker, 644 s with two.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
