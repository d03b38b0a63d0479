export function loadEstimator(): Promise<any>;
export const root: string;
