import { generateKeyPairSync } from 'node:crypto';

/** A fresh RSA key pair for tests: the private key as PKCS#8 and PKCS#1 PEM, the public as SPKI. */
export function generateAppKeys(): { pkcs8: string; pkcs1: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    pkcs8: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    pkcs1: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}
