import pino from 'pino';

// Patient fields are redacted wherever they appear in a logged object, so a careless log line cannot leak PHI.
const PHI_PATHS = ['name', 'firstName', 'lastName', 'email', 'dateOfBirth', 'dob', 'phone', 'address', 'answers', 'patient', 'password', 'authorization']
  .flatMap((k) => [k, `*.${k}`, `*.*.${k}`]);

export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  redact: { paths: PHI_PATHS, censor: '[redacted]' },
  base: undefined,
});
