import { defineConfig, type ViteUserConfig } from 'vitest/config';

// Native addons and worker threads mix badly, so every test file runs in its own forked process.
const config: ViteUserConfig = defineConfig({
  test: {
    pool: 'forks',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
export default config;
