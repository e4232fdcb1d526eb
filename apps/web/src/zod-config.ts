import { z } from 'zod';

// The server's Content-Security-Policy has no 'unsafe-eval'. Zod would otherwise probe for eval with
// `new Function` at the first parse, which the browser refuses and reports as a CSP violation; its
// interpreted parser is fast enough for socket messages. Imported first by main.tsx.
z.config({ jitless: true });
