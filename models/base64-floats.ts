/** Float32 arrays as base64 of their little-endian bytes: compact and exact in JSON. */
export function encodeFloats(values: Float32Array): string {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i] as number, true);
  return Buffer.from(bytes).toString('base64');
}

export function decodeFloats(text: string, expectedLength: number, what: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== expectedLength * 4) {
    throw new Error(
      `${what}: expected ${expectedLength} float32 values, found ${bytes.length / 4}`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(expectedLength);
  for (let i = 0; i < expectedLength; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
