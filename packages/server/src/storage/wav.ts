/** Writes a mono 16-bit PCM WAV of beeps: the demo's listening audio, made here rather than shipped. */
export function beepsWav(count: number, sampleRate = 8000): Buffer {
  const beep = 0.2;
  const gap = 0.4;
  const seconds = count * (beep + gap) + 0.3;
  const samples = Math.round(seconds * sampleRate);
  const buf = Buffer.alloc(44 + samples * 2);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + samples * 2, 4);
  buf.write('WAVE', 8);
  buf.write('fmt ', 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    const t = i / sampleRate;
    const inBeep = t % (beep + gap) < beep && t < count * (beep + gap);
    const v = inBeep ? Math.round(Math.sin(2 * Math.PI * 880 * t) * 12000) : 0;
    buf.writeInt16LE(v, 44 + i * 2);
  }
  return buf;
}

/** Length of a PCM WAV in seconds. */
export function wavSeconds(wav: Buffer): number {
  return wav.readUInt32LE(40) / wav.readUInt32LE(28);
}
