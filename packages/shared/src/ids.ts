/** 24-hex ids in the MongoDB ObjectId form: 4 bytes of seconds, 5 random bytes, 3 bytes of counter. */
const hexId = /^[0-9a-f]{24}$/i;

export function isObjectId(value: unknown): value is string {
  return typeof value === 'string' && hexId.test(value);
}

let counter = Math.floor(Math.random() * 0xffffff);
const processRandom = Array.from({ length: 5 }, () => Math.floor(Math.random() * 256));

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

export function newObjectId(date: Date = new Date()): string {
  counter = (counter + 1) % 0xffffff;
  const seconds = Math.floor(date.getTime() / 1000);
  return hex(seconds, 8) + processRandom.map((b) => hex(b, 2)).join('') + hex(counter, 6);
}
