import type { Command } from 'commander';

export function registerInstall(_program: Command): void {
  // Not built yet.
}
