/**
 * The limit `pre` sends for a window, or undefined when it leaves the window alone.
 * @param {{ path: string, cwd: string, offset: number, limit: number, cap: number }} w
 * @returns {number | undefined}
 */
export function preLimit(w: {
    path: string;
    cwd: string;
    offset: number;
    limit: number;
    cap: number;
}): number | undefined;
