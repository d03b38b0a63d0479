// The fast tier (`npm run test:unit`): pure decisions and in-process code. No built binary, no real engine, so it
// runs in seconds on a clean checkout before any build; `npm test` runs everything. test/gates/state.test.ts is
// pure too, but fills the gates' state to its bounds for half a minute: it stays in the full suite.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/gates/rules.test.ts', 'test/gates/run.test.ts'],
    testTimeout: 20_000,
  },
});
