/**
 * NPI check digit: Luhn over the 9-digit base prefixed with the health-industry number 80840
 * (the prefix contributes a constant 24 to the sum).
 */
export function isValidNpi(npi: string): boolean {
  if (!/^\d{10}$/.test(npi)) return false;
  let sum = 24;
  const base = npi.slice(0, 9);
  for (let i = 0; i < 9; i++) {
    let d = Number(base[8 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10 === Number(npi[9]);
}

