import type { Command } from 'commander';

export function registerDoctor(_program: Command): void {
  // Not built yet.
}
