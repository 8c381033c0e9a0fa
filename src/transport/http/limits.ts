/** Largest request body accepted (413 beyond it). */
export const BODY_LIMIT_BYTES = 1024 * 1024;
