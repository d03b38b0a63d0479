// The platform-dependent pure decisions: where state lives and how the oversize-line advice is written.
import { describe, expect, it } from 'vitest';
import { byteRangeAdvice } from '../../src/hooks/note';
import { stateDir } from '../../src/state/store';

describe('stateDir', () => {
  it('follows each platform\'s place for per-user state', () => {
    expect(stateDir({ HOME: '/home/jo' }, 'linux')).toBe('/home/jo/.local/state/read-ceiling-pager');
    expect(stateDir({ HOME: '/Users/jo' }, 'darwin')).toBe('/Users/jo/Library/Application Support/read-ceiling-pager');
    expect(stateDir({ LOCALAPPDATA: 'C:\\Users\\jo\\AppData\\Local' }, 'win32')).toBe('C:\\Users\\jo\\AppData\\Local\\read-ceiling-pager');
    expect(stateDir({ USERPROFILE: 'C:\\Users\\jo' }, 'win32')).toBe('C:\\Users\\jo\\AppData\\Local\\read-ceiling-pager');
  });

  it('the override, the plugin\'s data and XDG_STATE_HOME win everywhere; relative values are ignored', () => {
    expect(stateDir({ READ_CEILING_PAGER_STATE_DIR: 'D:\\state', LOCALAPPDATA: 'C:\\x' }, 'win32')).toBe('D:\\state');
    expect(stateDir({ CLAUDE_PLUGIN_DATA: 'C:\\Users\\jo\\.claude\\plugins\\data\\rcp' }, 'win32')).toBe('C:\\Users\\jo\\.claude\\plugins\\data\\rcp\\state');
    expect(stateDir({ XDG_STATE_HOME: '/Users/jo/.state', HOME: '/Users/jo' }, 'darwin')).toBe('/Users/jo/.state/read-ceiling-pager');
    expect(stateDir({ READ_CEILING_PAGER_STATE_DIR: 'rel\\dir', LOCALAPPDATA: 'C:\\L' }, 'win32')).toBe('C:\\L\\read-ceiling-pager');
  });
});

describe('byteRangeAdvice', () => {
  it('POSIX tools on Linux and macOS (BSD and GNU sed and cut alike), the path quoted only when needed', () => {
    expect(byteRangeAdvice('/r/min.json', 2, 'linux')).toBe("`sed -n '2p' /r/min.json | cut -c 1-20000`");
    expect(byteRangeAdvice("/Users/jo/it's here.json", 7, 'darwin')).toBe("`sed -n '7p' '/Users/jo/it'\\''s here.json' | cut -c 1-20000`");
  });

  it('on Windows the same for Git Bash, and a PowerShell form, each quoting the path its own way', () => {
    expect(byteRangeAdvice("C:\\r\\it's.json", 3, 'win32')).toBe(
      "`sed -n '3p' 'C:\\r\\it'\\''s.json' | cut -c 1-20000` in Git Bash, or "
      + "`@(Get-Content -LiteralPath 'C:\\r\\it''s.json' -TotalCount 3)[-1][0..19999] -join ''` in PowerShell",
    );
  });

  it('after the characters already shown (an engine excerpt), the next 20,000', () => {
    expect(byteRangeAdvice('/r/min.json', 1, 'linux', 14336)).toBe("`sed -n '1p' /r/min.json | cut -c 14337-34336`");
    expect(byteRangeAdvice('C:\\m.json', 1, 'win32', 100)).toContain('-TotalCount 1)[-1][100..20099] -join');
  });
});
