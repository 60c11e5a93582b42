// Cheap non-cryptographic hashing (FNV-1a, 32-bit) for fragment fingerprints and ETags.
// ETags need "changes when the body changes", not secrecy; a native digest of every body would
// cost more than building it.

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export function hashBytes(bytes: Uint8Array, start = 0, end = bytes.length, seed = FNV_OFFSET): number {
  let hash = seed;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ (bytes[i] as number), FNV_PRIME);
  return hash >>> 0;
}

export function hashString(text: string, seed = FNV_OFFSET): number {
  let hash = seed;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash >>> 0;
}

/** Folds one 32-bit value into a running hash. */
export function mixHash(hash: number, value: number): number {
  hash = Math.imul(hash ^ (value & 0xffff), FNV_PRIME);
  return Math.imul(hash ^ (value >>> 16), FNV_PRIME) >>> 0;
}

export const HASH_SEED = FNV_OFFSET;
