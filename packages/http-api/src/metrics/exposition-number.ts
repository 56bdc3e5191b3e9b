/** The most bytes `writeNumber` writes: a double as JavaScript prints it (e.g. -1.2345678901234567e+308). */
export const maxNumberBytes = 25;

/** "00" to "99": two digits a step. */
const pairs = Buffer.from(Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0')).join(''), 'latin1');

/** Writes the digits of a non-negative safe integer at `at`; answers where they end. */
function writeDigits(out: Buffer, at: number, value: number): number {
  let digits = 1;
  for (let power = 10; power <= value; power *= 10) digits++;
  let i = at + digits;
  let rest = value;
  while (rest >= 100) {
    const hundredth = Math.floor(rest / 100);
    const pair = (rest - hundredth * 100) * 2;
    out[--i] = pairs[pair + 1]!;
    out[--i] = pairs[pair]!;
    rest = hundredth;
  }
  if (rest >= 10) {
    out[--i] = pairs[rest * 2 + 1]!;
    out[--i] = pairs[rest * 2]!;
  } else out[--i] = 0x30 + rest;
  return at + digits;
}

/**
 * Writes `value` as the text format shows it, which is as JavaScript prints it (`String(value)`),
 * without a string a value: whole numbers digit by digit, and numbers with at most three decimals
 * (the gauges' times: Unix seconds with their milliseconds) as their whole part, a point and
 * those decimals. Such a number has at most 15 significant digits, so its shortest round-trip
 * form, which JavaScript prints, is that decimal. Anything else goes through String.
 */
export function writeNumber(out: Buffer, at: number, value: number): number {
  if (value >= 0 && Number.isSafeInteger(value)) return writeDigits(out, at, value);
  const whole = Math.floor(value);
  if (whole >= 0 && whole < 1e12) {
    const thousandths = Math.round((value - whole) * 1000);
    if (thousandths > 0 && thousandths < 1000 && (whole * 1000 + thousandths) / 1000 === value) {
      at = writeDigits(out, at, whole);
      out[at++] = 0x2e;
      // 250 → ".25", 5 → ".005": three places, trailing zeros dropped.
      let decimals = thousandths;
      let places = 3;
      while (decimals % 10 === 0) {
        decimals /= 10;
        places--;
      }
      for (let i = at + places - 1; i >= at; i--) {
        out[i] = 0x30 + (decimals % 10);
        decimals = Math.floor(decimals / 10);
      }
      return at + places;
    }
  }
  return at + out.write(String(value), at, 'latin1');
}
