// Replaced at build time from package.json, so the bundle needs no file at run time.
declare const __VERSION__: string;
export const VERSION: string = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';
