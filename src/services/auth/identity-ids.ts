/** An ISO timestamp `seconds` from now: the expiry of identity tokens and challenges. */
export const secondsFromNow = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
