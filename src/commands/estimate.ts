import type { Command } from 'commander';

export function registerEstimate(_program: Command): void {
  // Not built yet.
}
