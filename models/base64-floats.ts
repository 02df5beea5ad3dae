import { WeightDataError } from './errors.ts';

/**
 * Float32 arrays as base64 of their little-endian bytes: compact and exact in
 * JSON. Uses `btoa`/`atob` (browsers and Node 16+), so the web page can read
 * policy files with the same code as Node.
 */
export function encodeFloats(values: Float32Array): string {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i] as number, true);
  let binary = '';
  // Chunks keep String.fromCharCode's argument list small.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Decodes base64 float32 values; a wrong length or a NaN/Infinity value is an error naming `what`. */
export function decodeFloats(text: string, expectedLength: number, what: string): Float32Array {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new WeightDataError(`${what} is not valid base64`);
  }
  if (binary.length !== expectedLength * 4) {
    throw new WeightDataError(
      `${what}: expected ${expectedLength} float32 values (${expectedLength * 4} bytes), found ${binary.length} bytes`,
    );
  }
  const view = new DataView(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) view.setUint8(i, binary.charCodeAt(i));
  const out = new Float32Array(expectedLength);
  for (let i = 0; i < expectedLength; i++) {
    const value = view.getFloat32(i * 4, true);
    // A NaN or infinite weight makes every output NaN: refuse it where weights enter.
    if (!Number.isFinite(value))
      throw new WeightDataError(`${what}: value ${i} is ${value}, not a finite number`);
    out[i] = value;
  }
  return out;
}
