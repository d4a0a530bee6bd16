// Password hashing (Argon2id, OWASP's minimum parameters).
import { hash } from '@node-rs/argon2';

export const hashPassword = (s: string) => hash(s, { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 });
