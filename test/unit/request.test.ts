import { describe, expect, it } from 'vitest';
import { clampedInput, classifyRead, isImageSignature, mayBeImageBySignature, notLines } from '../../src/hooks/request';

describe('classifyRead names the engine path a Read takes', () => {
  it('an explicit window', () => {
    expect(classifyRead({ file_path: '/a', offset: 5, limit: 10 })).toEqual({ kind: 'window', first: 5, lines: 10 });
    expect(classifyRead({ file_path: '/a', limit: 10 })).toEqual({ kind: 'window', first: 1, lines: 10 });
  });

  it('offset 0 starts at line 1', () => {
    expect(classifyRead({ file_path: '/a', offset: 0, limit: 10 })).toEqual({ kind: 'window', first: 1, lines: 10 });
  });

  it('a whole-file read: no limit from line 1 (offset absent, 0 or 1)', () => {
    for (const offset of [undefined, 0, 1]) expect(classifyRead({ file_path: '/a', offset })).toEqual({ kind: 'whole' });
  });

  it('offset 2 or more without a limit reads the rest', () => {
    expect(classifyRead({ file_path: '/a', offset: 2 })).toEqual({ kind: 'rest', first: 2 });
  });

  it('leaves PDFs and allow_large alone', () => {
    expect(classifyRead({ file_path: '/a.pdf', pages: '1-3', limit: 10 })).toEqual({ kind: 'pass' });
    expect(classifyRead({ file_path: '/a', allow_large: true, limit: 10 })).toEqual({ kind: 'pass' });
    expect(classifyRead({ file_path: '/a', allow_large: false, limit: 10 })).toEqual({ kind: 'window', first: 1, lines: 10 });
  });

  it('leaves images, PDFs and notebooks alone, whatever window they name: the engine does not read them as lines', () => {
    for (const file_path of ['/s/shot.png', '/s/a.JPG', 'rel/b.jpeg', '/c.gif', '/d.webp', '/e.pdf', '/f.ipynb', 'C:\\n\\g.IPYNB']) {
      expect([file_path, classifyRead({ file_path, offset: 1, limit: 10 })]).toEqual([file_path, { kind: 'pass' }]);
      expect([file_path, classifyRead({ file_path })]).toEqual([file_path, { kind: 'pass' }]);
    }
  });
});

describe('notLines: what the engine reads some other way than as lines, by extension as node reads it', () => {
  it('images, PDFs and notebooks, in any case', () => {
    expect(['a.png', 'a.jpg', 'a.jpeg', 'a.gif', 'a.webp', 'a.PDF', 'a.ipynb'].map(notLines))
      .toEqual(['image', 'image', 'image', 'image', 'image', 'pdf', 'notebook']);
  });

  it('not text that only looks like them: another extension, a name that is only the extension, a dot in a folder', () => {
    for (const path of ['a.svg', 'a.png.txt', 'notebook.json', '/x/.png', '.ipynb', '/x.png/readme', 'C:\\x.pdf\\a', 'png', 'a.']) {
      expect([path, notLines(path)]).toEqual([path, undefined]);
    }
  });
});

describe('an image the engine knows by its first bytes, in a file named without an extension', () => {
  it('looks only at names without an extension, as node reads them', () => {
    const looked = ['/x/screenshot', '/x/.image', 'C:\\x\\shot', '/x/shot.'].filter(mayBeImageBySignature);
    expect(looked).toEqual(['/x/screenshot', '/x/.image', 'C:\\x\\shot', '/x/shot.']);
    expect(['/x/shot.txt', '/x.d/shot.bin', '/x/a.png'].filter(mayBeImageBySignature)).toEqual([]);
  });

  it('PNG, JPEG, GIF 87a and 89a, WebP', () => {
    const heads = [
      [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0xff, 0xd8, 0xff, 0xe0], Buffer.from('GIF87a'), Buffer.from('GIF89a'),
      Buffer.concat([Buffer.from('RIFF'), Buffer.from([1, 2, 3, 4]), Buffer.from('WEBPVP8 ')]),
    ];
    expect(heads.map((h) => isImageSignature(Uint8Array.from(h)))).toEqual([true, true, true, true, true]);
  });

  it('not text, nor what only starts like an image', () => {
    const heads = ['#!/bin/sh', 'GIF88a', 'GIF8', 'RIFF\x01\x02\x03\x04WAVE', 'PNG', '', '\uFEFFtext'].map((t) => Buffer.from(t, 'latin1'));
    heads.push(Buffer.from([0x89, 0x50, 0x4e]), Buffer.from([0xff, 0xd8, 0xfe, 0x00]));
    expect(heads.filter((h) => isImageSignature(h))).toEqual([]);
  });
});

describe('clampedInput sends the whole input with only the window changed', () => {
  it('keeps every other field, unknown ones too', () => {
    const input = { file_path: '/a', offset: 7, limit: 3000, future_field: { x: 1 } };
    expect(clampedInput(input, 7, 1099)).toEqual({ file_path: '/a', offset: 7, limit: 1099, future_field: { x: 1 } });
  });

  it('turns offset 0 into 1 so lines keep their file numbers', () => {
    expect(clampedInput({ file_path: '/a', offset: 0, limit: 3000 }, 1, 1099)).toEqual({ file_path: '/a', offset: 1, limit: 1099 });
  });

  it('adds no offset to a read that had none from line 1', () => {
    expect(clampedInput({ file_path: '/a' }, 1, 900)).toEqual({ file_path: '/a', limit: 900 });
  });
});
